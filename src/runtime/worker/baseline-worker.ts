import { parentPort, workerData } from 'node:worker_threads';
import { isInferkitError } from '../../errors.js';
import { createBaseline } from '../forecast/baseline-spec.js';
import type { ForecastModel } from '../forecast/forecast-model.js';
import { buffersOf, type BaselineTask, type BaselineWorkerInit, type FromBaselineWorker } from './baseline-messages.js';

/**
 * Entry of a baseline worker thread: builds the baseline of `workerData` and answers `predict`
 * tasks one at a time until the main thread terminates it. The forecast blocks this thread only.
 */
function main(port: NonNullable<typeof parentPort>, init: BaselineWorkerInit): void {
  const post = (message: FromBaselineWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  let model: ForecastModel;
  try {
    model = createBaseline(init.spec);
  } catch (e) {
    post({ kind: 'load-failed', code: isInferkitError(e) ? e.code : 'model_load_failed', message: e instanceof Error ? e.message : String(e) });
    return;
  }
  post({ kind: 'ready' });
  port.on('message', (task: BaselineTask) => {
    model.predict(task.series, task.horizon, task.frequencies ? { frequencies: task.frequencies } : {}).then(
      (out) => {
        const arrays = [...out.values, ...(out.mean ?? [])];
        post({ kind: 'result', id: task.id, levels: [...out.levels], values: out.values, ...(out.mean ? { mean: out.mean } : {}) }, buffersOf(arrays));
      },
      (e: unknown) =>
        post({
          kind: 'failed',
          id: task.id,
          code: isInferkitError(e) ? e.code : 'inference_failed',
          message: e instanceof Error ? e.message : String(e),
          ...(isInferkitError(e) && e.param !== undefined ? { param: e.param } : {}),
        }),
    );
  });
}

if (parentPort !== null && (workerData as { inferkitBaselineWorker?: BaselineWorkerInit } | undefined)?.inferkitBaselineWorker !== undefined) {
  main(parentPort, (workerData as { inferkitBaselineWorker: BaselineWorkerInit }).inferkitBaselineWorker);
}
