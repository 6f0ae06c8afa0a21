import { parentPort, workerData } from 'node:worker_threads';
import { InferkitError, isInferkitError } from '../../errors.js';
import { createBaseline } from '../forecast/baseline-spec.js';
import type { ForecastModel, ModelForecast } from '../forecast/forecast-model.js';
import { buffersOf, type BaselineTask, type BaselineWorkerInit, type FromBaselineWorker } from './baseline-messages.js';

/** Runs one chunk on `model`: `predict` on its series, `predictTasks` on its tasks (covariates included). */
function run(model: ForecastModel, task: BaselineTask): Promise<ModelForecast> {
  const opts = task.frequencies ? { frequencies: task.frequencies } : {};
  if (task.kind === 'predict') {
    return model.predict(task.series, task.horizon, opts);
  }
  if (model.predictTasks === undefined) {
    return Promise.reject(new InferkitError('internal', `model "${model.name}" has no predictTasks; the main thread should not have sent tasks`));
  }
  return model.predictTasks(task.tasks, task.horizon, opts);
}

/**
 * Entry of a baseline worker thread: builds the baseline of `workerData` and answers `predict` and
 * `predict-tasks` chunks one at a time until the main thread terminates it. The forecast blocks this thread only.
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
    run(model, task).then(
      (out) => {
        const arrays = [...out.values, ...(out.mean ?? [])];
        post(
          { kind: 'result', id: task.id, levels: [...out.levels], values: out.values, ...(out.mean ? { mean: out.mean } : {}), ...(out.taskWarnings ? { taskWarnings: out.taskWarnings } : {}) },
          buffersOf(arrays),
        );
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
