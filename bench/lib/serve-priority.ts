import { getPriority, setPriority } from 'node:os';
import { SERVE_EVENT_LOOP_NICE } from '../../src/server/event-loop-priority/event-loop-priority.js';

/**
 * Runs `body` with a server started as `inferkit serve` runs it: `start(nice)` is given the CLI's event-loop nice
 * (its event loop lowers its priority once loaded), and this thread's nice value is set back afterwards, so the
 * next server's sessions start at the bench's own priority.
 */
export async function withServePriority<T>(start: (eventLoopNice: number) => Promise<T>): Promise<T> {
  const nice0 = getPriority(0);
  try {
    return await start(SERVE_EVENT_LOOP_NICE);
  } finally {
    restorePriority(nice0);
  }
}

/** Sets this thread's nice value back to `nice` (a lower value needs privileges: without them the bench says so once and goes on). */
function restorePriority(nice: number): void {
  try {
    setPriority(0, nice);
  } catch (e) {
    if (!restoreWarned) {
      restoreWarned = true;
      process.stderr.write(`warning: could not set this process's event loop back to nice ${nice} (${(e as Error).message}): later servers' sessions start at the lowered priority, so they gain nothing from it\n`);
    }
  }
}
let restoreWarned = false;
