import { getPriority, setPriority } from 'node:os';
import type { InferenceService } from '../../src/contract/inference-service.js';
import { SERVE_EVENT_LOOP_NICE } from '../../src/server/event-loop-priority/event-loop-priority.js';
import type { ModelLoaders } from '../../src/server/model-loader.js';
import type { ModelState } from '../../src/server/model-registry.js';
import { serve, type RunningServer, type ServeOptions } from '../../src/server/serve.js';

/**
 * Serves `isvc` in this process as `inferkit serve` would: the event loop lowers its priority by the CLI's nice once
 * loaded. Runs `body` once the service's model is ready (a load failure throws, naming the service), closes the
 * server, and sets this thread's nice value back, so the next server's sessions start at the bench's own priority.
 */
export async function withCliServer<T>(
  isvc: InferenceService,
  loaders: ModelLoaders,
  inference: Omit<NonNullable<ServeOptions['inference']>, 'eventLoopNice'>,
  body: (server: RunningServer, state: ModelState) => Promise<T>,
): Promise<T> {
  const nice0 = getPriority(0);
  try {
    const server = await serve([isvc], { port: 0, loaders, inference: { ...inference, eventLoopNice: SERVE_EVENT_LOOP_NICE } });
    try {
      const [state] = await server.loaded();
      if (!state.ready) {
        throw new Error(`${isvc.metadata.name} did not load: ${state.reason ?? ''}`);
      }
      return await body(server, state);
    } finally {
      await server.close();
    }
  } finally {
    // Even when the start or the close throws.
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
