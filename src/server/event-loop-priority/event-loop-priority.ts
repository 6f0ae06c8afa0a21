import { getPriority, platform, setPriority } from 'node:os';
import { noteRaisedPriority } from '../../runtime/worker/thread-priority.js';

/**
 * What `inferkit serve` raises its event loop's nice value by (`--event-loop-nice`'s default). Families served from
 * their checkpoints on 2 cores, c=32, nice 0 and 10 alternated in one process: +6-10% sentences/s with a health probe
 * every 10 ms beside the load, +1.4% (within noise) on BERT without one; health p99 under saturation ~15 → 30-60 ms.
 */
export const SERVE_EVENT_LOOP_NICE = 10;

/** Most a nice value can be (the lowest priority), and so the most `--event-loop-nice` can add. */
export const MAX_NICE = 19;

/** Whether a nice value belongs to one thread here (Linux), so that lowering one thread's leaves the others'. */
export function perThreadNice(os: string = platform()): boolean {
  return os === 'linux';
}

/**
 * Lowers the calling thread's CPU priority by `nice` (its nice value goes up by that much, at most to 19), so
 * that under saturation the threads that were already running at the old priority (the ONNX sessions' intra-op
 * threads) win the cores from it. Linux only: there a nice value belongs to one thread, so the rest of the
 * process keeps its priority. Elsewhere (a nice value for the whole process) and for `nice` ≤ 0 nothing changes.
 * Threads this thread starts later inherit the new value, except inferkit's worker threads: they start at the old one
 * where the thread may go back to it, which needs privileges (CAP_SYS_NICE, as root has; src/runtime/worker/thread-priority.ts).
 * Without them this thread cannot raise its priority back either, so this is for a process that serves and nothing
 * else (`inferkit serve`).
 * Returns the thread's nice value after the call and whether inferkit's workers started later get the old one, or
 * undefined where nothing was changed.
 */
export function lowerThreadPriority(nice: number, os: string = platform()): { nice: number; workersAtOldPriority: boolean } | undefined {
  if (nice <= 0 || !perThreadNice(os)) {
    return undefined;
  }
  // pid 0: the calling thread on Linux (setpriority(2), "a bug" POSIX does not share).
  const before = getPriority(0);
  setPriority(0, Math.min(MAX_NICE, before + nice));
  // Worker threads started from here on (a crashed session's replacement) start at `before` where this thread may go back to it.
  const workersAtOldPriority = noteRaisedPriority(before);
  return { nice: getPriority(0), workersAtOldPriority };
}
