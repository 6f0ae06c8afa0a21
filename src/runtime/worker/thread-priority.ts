import { getPriority, setPriority } from 'node:os';

/**
 * The calling thread's nice value from before `lowerThreadPriority` (src/server/event-loop-priority/) raised it, while
 * it stays raised and the thread may go back to it. Module state, so per thread: each worker thread has its own copy
 * of this module.
 */
let baseNice: number | undefined;

/**
 * Records that the calling thread's nice value was raised from `before`: threads it starts from now on start at
 * `before` where the thread may go back to it ({@link atBasePriority}). Returns whether it may (raising a thread's
 * priority needs CAP_SYS_NICE or an RLIMIT_NICE that allows it); found out by going back and up again.
 */
export function noteRaisedPriority(before: number): boolean {
  const raised = getPriority(0);
  if (raised <= before) {
    baseNice = undefined;
    return true;
  }
  try {
    setPriority(0, before);
  } catch {
    // Where it may not, later workers inherit the raised value, and atBasePriority does not try.
    baseNice = undefined;
    return false;
  }
  setPriority(0, raised);
  baseNice = before;
  return true;
}

/**
 * Runs `start`, which starts a thread (a `Worker`'s constructor does, synchronously), at the calling thread's priority
 * from before it was raised, then raises it again: a session worker started after `inferkit serve` lowered its event
 * loop's priority (a crashed worker's replacement) and the ONNX Runtime threads that worker starts run at the
 * priority of the sessions that started first, not the event loop's. Where the thread may not go back (see
 * {@link noteRaisedPriority}), or it was never raised, `start` just runs: its thread inherits the current priority.
 */
export function atBasePriority<T>(start: () => T): T {
  if (baseNice === undefined) {
    return start();
  }
  const raised = getPriority(0);
  try {
    setPriority(0, baseNice);
  } catch {
    return start();
  }
  try {
    return start();
  } finally {
    setPriority(0, raised);
  }
}
