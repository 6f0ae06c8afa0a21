import type { Frequency } from '../../contract/enums.js';
import type { BaselineSpec } from '../forecast/baseline-spec.js';
import type { ForecastTask, ModelForecast } from '../forecast/forecast-model.js';

/** `workerData.inferkitBaselineWorker` of a baseline worker: the model to build. */
export interface BaselineWorkerInit {
  spec: BaselineSpec;
}

/**
 * One chunk of a call, without its id: `predict` forecasts `series`; `predict-tasks` forecasts
 * `tasks` with their covariates (models with `predictTasks`: AutoARIMA, the stat-ensemble).
 * `frequencies` has one entry per series (per target, tasks in order). Buffers are transferred.
 */
export type BaselinePayload =
  | { kind: 'predict'; series: Float32Array[]; horizon: number; frequencies?: Frequency[] }
  | { kind: 'predict-tasks'; tasks: ForecastTask[]; horizon: number; frequencies?: Frequency[] };

/** Main thread → baseline worker: one chunk, numbered. */
export type BaselineTask = BaselinePayload & { id: number };

/** Baseline worker → main thread. */
export type FromBaselineWorker =
  | { kind: 'ready' }
  | { kind: 'load-failed'; code: string; message: string }
  | { kind: 'result'; id: number; levels: number[]; values: Float32Array[]; mean?: Float32Array[]; taskWarnings?: ModelForecast['taskWarnings'] }
  | { kind: 'failed'; id: number; code: string; message: string; param?: string };

/** The distinct ArrayBuffers behind `arrays` (each a whole buffer), to transfer rather than copy. */
export function buffersOf(arrays: readonly Float32Array[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const a of arrays) {
    if (a.buffer instanceof ArrayBuffer && a.byteOffset === 0 && a.byteLength === a.buffer.byteLength) {
      out.add(a.buffer);
    }
  }
  return [...out];
}

/** Every array a payload carries (series, or each task's targets and covariates), to transfer. */
export function arraysOf(payload: BaselinePayload): Float32Array[] {
  if (payload.kind === 'predict') {
    return payload.series;
  }
  return payload.tasks.flatMap((t) => [...t.targets, ...t.pastCovariates, ...t.futureCovariates.flatMap((c) => [c.history, c.future])]);
}
