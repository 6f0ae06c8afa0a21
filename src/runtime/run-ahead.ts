/**
 * Starts `jobs` in order with `start`, keeping up to `window` of them started and not yet settled, and
 * hands each output to `settle` in job order. Running ahead lets a session in a worker thread go from run
 * to run without waiting for this thread, and gives each replica of a pool a run of its own; the window
 * keeps an abort effective (`check` runs before each start: throw to stop). A failure surfaces when its
 * job's turn comes, and only after the runs already started have finished.
 */
export async function runAhead<J, O>(
  jobs: Iterable<J>,
  window: number,
  start: (job: J) => Promise<O>,
  settle: (job: J, out: O) => void,
  check?: () => void,
): Promise<void> {
  const inFlight: Array<{ job: J; out: Promise<O> }> = [];
  const settleOldest = async (): Promise<void> => {
    const oldest = inFlight.shift() as { job: J; out: Promise<O> };
    settle(oldest.job, await oldest.out);
  };
  try {
    for (const job of jobs) {
      check?.();
      const out = start(job);
      // Handled here, awaited in turn.
      out.catch(() => undefined);
      inFlight.push({ job, out });
      if (inFlight.length >= window) {
        await settleOldest();
      }
    }
    while (inFlight.length > 0) {
      await settleOldest();
    }
  } finally {
    // On a failure or abort, the runs already started finish before the caller hears of it.
    await Promise.allSettled(inFlight.map((r) => r.out));
  }
}
