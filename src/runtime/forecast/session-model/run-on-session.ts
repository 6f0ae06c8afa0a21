import type { OrtSession } from '../../ort.js';
import { runAhead } from '../../run-ahead.js';

/**
 * Runs a call's pieces on a session, handing each output to `collect` in order. Runs ahead: up to
 * `parallelRuns + 1` runs are handed over at once, so session replicas run pieces side by side and a worker
 * session goes from run to run without waiting for this thread. `signal` is checked before each run (its
 * reason is thrown); a failure surfaces when its piece's turn comes, after the runs already handed over finish.
 */
export async function runOnSession<P, O>(session: OrtSession, pieces: Iterable<P>, run: (piece: P) => Promise<O>, collect: (piece: P, out: O) => void, signal?: AbortSignal): Promise<void> {
  await runAhead(pieces, (session.parallelRuns ?? 1) + 1, run, collect, () => signal?.throwIfAborted());
}

/**
 * How many runs a call is cut into at least, so it runs side by side on session replicas: one per idle
 * replica (one per replica when none is idle); undefined for a session without replicas.
 */
export function replicaRuns(session: OrtSession): number | undefined {
  const parallel = session.parallelRuns ?? 1;
  return parallel > 1 ? session.idleRuns || parallel : undefined;
}
