import type { Chronos2Config } from '../../../checkpoint/families/chronos-2/config.js';
import { float32Tensor, int64Tensor, type OrtSession, type SessionOptions } from '../../ort.js';
import type { ForecastModel, ForecastTask, ModelForecast, PredictOptions } from '../forecast-model.js';
import { ascendingLevels, positiveInteger } from '../session-model/config-checks.js';
import { openForecastSession } from '../session-model/open-forecast-session.js';
import { runOnSession } from '../session-model/run-on-session.js';
import { sessionForecastModel } from '../session-model/session-forecast-model.js';
import { predictBatch, type PipelineRow, type PipelineSpec, type RunChronos2 } from './pipeline.js';

/** The pipeline's `unrolled_quantiles`: paths appended to the context beyond the first call. */
export const UNROLLED_QUANTILES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] as const;

/** Options of {@link createChronos2} (and of `loadChronos2`). */
export interface Chronos2Options {
  /** Name requests are checked against. @default the model folder's name or hub id */
  name?: string;
  /** Rows (targets and covariates) per pipeline batch: tasks are added while fewer rows are in it (the pipeline's `batch_size`). @default 256 */
  batchSize?: number;
  /** Most rows per ONNX run: a batch (×9 beyond the native horizon) is run in pieces of whole tasks. @default 256 */
  runRows?: number;
  /** Steps of context read per row (the pipeline's `context_length`), at most the model's. @default config context_length */
  contextLength?: number;
  /** Every task of a batch in one group (the pipeline's `cross_learning`). @default false */
  crossLearning?: boolean;
  /** ONNX Runtime session options. @default one session in this thread with every CPU the process may use */
  session?: SessionOptions;
}

/** Per-call options of {@link Chronos2Model.predictTasks}: the model's defaults, overridden. */
export interface Chronos2PredictOptions extends PredictOptions {
  contextLength?: number;
  crossLearning?: boolean;
}

/** A Chronos-2 {@link ForecastModel}: `predictTasks` forecasts groups with covariates; `predict` treats each series as its own task. */
export interface Chronos2Model extends ForecastModel {
  predictTasks(tasks: readonly ForecastTask[], horizon: number, options?: Chronos2PredictOptions): Promise<ModelForecast>;
}

/**
 * A built Chronos-2 graph (`checkpoint/families/chronos-2.ts`) as a {@link ForecastModel} with Chronos2Pipeline's
 * semantics: each task's rows are its targets, then its past-only covariates, then its known-future covariates
 * (one group; `crossLearning` puts a batch's tasks in one); each row keeps its last `contextLength` values and
 * the batch is left-padded with NaN to its longest row; known future values go in `future_covariates`; horizons
 * past `max_output_patches × patch` are unrolled as the pipeline does (see predictBatch). Levels =
 * `config.quantiles`; no own mean (the protocol reports the raw 0.5 level, as the pipeline's `mean`).
 */
export async function createChronos2(graphPath: string, cfg: Chronos2Config, options: Chronos2Options & { name: string }): Promise<Chronos2Model> {
  const batchSize = positiveInteger(options.batchSize ?? 256, 'batchSize');
  const runRows = positiveInteger(options.runRows ?? 256, 'runRows');
  const levels = ascendingLevels(cfg.quantiles, 'config.json quantiles', 'chronos_config.quantiles');
  const session = await openForecastSession(graphPath, options.session, {
    family: 'Chronos-2',
    inputs: ['context', 'group_ids', 'future_covariates'],
    outputs: ['quantile_preds'],
    mismatch: (missing) => `not a Chronos-2 graph built by inferkit: missing ${missing.join(', ')}`,
  });
  const spec: PipelineSpec = { contextLength: cfg.contextLength, patchSize: cfg.patchSize, maxOutputPatches: cfg.maxOutputPatches, quantiles: levels, unrolled: UNROLLED_QUANTILES };
  const Q = levels.length;

  const runOn = (s: OrtSession, signal?: AbortSignal): RunChronos2 => async ({ context, width, groups, future, futureWidth, tasks }) => {
    const out = new Float32Array(groups.length * Q * futureWidth);
    await runOnSession(
      s,
      pieces(tasks, runRows),
      async ([a, b]) => {
        const rows = b - a;
        const res = await s.run({
          context: float32Tensor(context.slice(a * width, b * width), [rows, width]),
          group_ids: int64Tensor(BigInt64Array.from(groups.slice(a, b), (g) => BigInt(g)), [rows]),
          future_covariates: float32Tensor(future.slice(a * futureWidth, b * futureWidth), [rows, futureWidth]),
        });
        return res.quantile_preds.data as Float32Array;
      },
      ([a], preds) => out.set(preds, a * Q * futureWidth),
      signal,
    );
    return out;
  };

  const predictTasks = async (current: OrtSession, tasks: readonly ForecastTask[], horizon: number, opts: Chronos2PredictOptions): Promise<ModelForecast> => {
    const C = Math.min(opts.contextLength ?? options.contextLength ?? cfg.contextLength, cfg.contextLength);
    const cross = opts.crossLearning ?? options.crossLearning ?? false;
    const values: Float32Array[] = [];
    for (const batch of batches(tasks, batchSize)) {
      const rows: PipelineRow[] = [];
      const targets: number[] = [];
      batch.forEach((task, g) => {
        const group = cross ? 0 : g;
        const add = (x: Float32Array, future?: Float32Array): void => {
          rows.push({ context: x.subarray(Math.max(0, x.length - C)), group, task: cross ? 0 : g, ...(future ? { future } : {}) });
        };
        task.targets.forEach((x) => {
          targets.push(rows.length);
          add(x);
        });
        task.pastCovariates.forEach((x) => add(x));
        task.futureCovariates.forEach((c) => add(c.history, c.future));
      });
      const out = await predictBatch(runOn(current, opts.signal), spec, rows, horizon);
      values.push(...targets.map((r) => out[r]));
    }
    return { levels, values };
  };

  return sessionForecastModel<Chronos2PredictOptions>(session, {
    name: options.name,
    nativeHorizon: cfg.maxOutputPatches * cfg.patchSize,
    quantiles: levels,
    patchSize: cfg.patchSize,
    contextLength: cfg.contextLength,
    // Its calls are cut into pieces of whole tasks, not queued: a server runs a few merged calls at a time.
    sharesRunQueue: false,
    predictTasks,
    predict: (current, batch, horizon, opts) => predictTasks(current, batch.map((x) => ({ targets: [x], pastCovariates: [], futureCovariates: [] })), horizon, opts),
  });
}

/** The pipeline's batches: tasks are added while the batch has fewer than `size` rows. */
function batches(tasks: readonly ForecastTask[], size: number): ForecastTask[][] {
  const out: ForecastTask[][] = [];
  let current: ForecastTask[] = [];
  let rows = 0;
  for (const t of tasks) {
    if (rows >= size) {
      out.push(current);
      current = [];
      rows = 0;
    }
    current.push(t);
    rows += t.targets.length + t.pastCovariates.length + t.futureCovariates.length;
  }
  if (current.length > 0) {
    out.push(current);
  }
  return out;
}

/** [start, end) row ranges of at most `limit` rows that never split a task (a larger task runs alone). */
function pieces(tasks: readonly number[], limit: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = 0;
  let lastCut = 0;
  for (let r = 1; r <= tasks.length; r++) {
    const boundary = r === tasks.length || tasks[r] !== tasks[r - 1];
    if (!boundary) {
      continue;
    }
    if (r - start > limit && lastCut > start) {
      out.push([start, lastCut]);
      start = lastCut;
    }
    lastCut = r;
  }
  if (start < tasks.length) {
    out.push([start, tasks.length]);
  }
  return out;
}
