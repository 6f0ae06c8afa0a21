/** Retry timing knobs (see RequestOptions). */
export interface BackoffOptions {
  /** First delay in milliseconds. @default 200 */
  retryDelayMs?: number;
  /** Largest delay in milliseconds. @default 5000 */
  maxRetryDelayMs?: number;
}

/**
 * Delay before retry number `attempt` (0-based): exponential (`retryDelayMs · 2^attempt`) with
 * "equal jitter" (between half and all of it), capped at `maxRetryDelayMs`. A server's
 * `Retry-After` (seconds) replaces the computed delay, within the same cap.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}, retryAfter?: string, random: () => number = Math.random): number {
  const cap = options.maxRetryDelayMs ?? 5000;
  const seconds = retryAfter === undefined ? Number.NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) {
    return Math.min(cap, seconds * 1000);
  }
  const full = Math.min(cap, (options.retryDelayMs ?? 200) * 2 ** attempt);
  return full / 2 + (random() * full) / 2;
}

/** Waits `ms` milliseconds; rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
