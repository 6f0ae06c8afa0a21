/**
 * Runs `fn` over `items` with at most `limit` calls in flight, results in input order. On the
 * first failure no new item starts, the `signal` passed to the calls still running is aborted,
 * and once every call has settled the first error is thrown (so nothing keeps writing after
 * the rejection). `outer` aborts everything the same way.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, signal: AbortSignal) => Promise<R>,
  outer?: AbortSignal,
): Promise<R[]> {
  const stop = new AbortController();
  const signal = outer ? AbortSignal.any([outer, stop.signal]) : stop.signal;
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  let firstError: unknown;
  const worker = async (): Promise<void> => {
    while (!failed && !signal.aborted && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i] as T, signal);
      } catch (err) {
        if (!failed) {
          failed = true;
          firstError = err;
          stop.abort(err);
        }
      }
    }
  };
  const width = Math.max(1, Math.min(Math.floor(limit), items.length));
  await Promise.all(Array.from({ length: width }, worker));
  if (failed) {
    throw firstError;
  }
  outer?.throwIfAborted();
  return results;
}
