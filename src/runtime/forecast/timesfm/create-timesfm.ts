import type { TimesFm20Config, TimesFm25Config } from '../../../checkpoint/families/timesfm/config.js';
import { InferkitError } from '../../../errors.js';
import type { SessionOptions } from '../../ort.js';
import type { ForecastModel, PredictOptions } from '../forecast-model.js';
import { ascendingLevels, positiveInteger } from '../session-model/config-checks.js';
import { openForecastSession } from '../session-model/open-forecast-session.js';
import { sessionForecastModel } from '../session-model/session-forecast-model.js';
import { timesFmFrequencyIndex } from './frequency-index.js';
import { globalScale, observed, prepare20, prepare25, type PreparedRow } from './prepare-series.js';
import { runRows, timesFmRunQueue } from './run-rows.js';

/** Options of the TimesFM models (and of `loadTimesFm`). */
export interface TimesFmOptions {
  /** Name requests are checked against. @default the model folder's name or hub id */
  name?: string;
  /** Graph rows per ONNX run (TimesFM 2.5 runs two rows per series: x and −x). @default 32 */
  batchSize?: number;
  /** ONNX Runtime session options. @default one session in this thread with every CPU the process may use */
  session?: SessionOptions;
  /**
   * TimesFM 2.5 only — which inputs decide whether outputs are clamped at 0 (`infer_is_positive`):
   * `series` (default) clamps a series when its own values are all ≥ 0, so an answer never depends on the
   * other series of a call (or on concurrent calls the server merges); `batch` is transformers' rule: clamp
   * every series when all values of all series of the `predict` call are ≥ 0.
   */
  clampScope?: 'series' | 'batch';
  /** TimesFM 2.5 only: override `config.force_flip_invariance` (average with the forecast of −x). */
  forceFlipInvariance?: boolean;
  /** TimesFM 2.5 only: override `config.infer_is_positive` (clamp non-negative inputs' outputs at 0). */
  truncateNegative?: boolean;
  /** Called as each ONNX run is handed over, with its rows and time steps. */
  onRun?: (rows: number, time: number) => void;
}

interface Decoded {
  values: Float32Array;
  mean: Float32Array;
}

interface Family {
  outputs: readonly string[];
  /** Graph rows of the batch (and their frequency indices, TimesFM 2.0). */
  rows(series: readonly Float64Array[], opts: PredictOptions): { rows: PreparedRow[]; freq?: number[] };
  /** Series i's forecast from the graph outputs. */
  decode(i: number, rows: readonly PreparedRow[], out: Record<string, Float32Array[]>, horizon: number, series: readonly Float64Array[]): Decoded;
}

/**
 * A built TimesFM 2.0 graph (`checkpoint/families/timesfm-2.0.ts`) as a {@link ForecastModel}, with the
 * reference's semantics: frequency index from each series' frequency (KServe's map), the last
 * `context_length` values, scaling by the first patch with ≥ 3 real values; `mean` = column 0 (the mean head,
 * KServe's `mean_forecast`), levels = `config.quantiles` (columns 1…). Gaps (NaN) are filled first (leading
 * ones dropped, inner ones interpolated, trailing ones carried), as the timesfm library does.
 */
export async function createTimesFm20(graphPath: string, c: TimesFm20Config, options: TimesFmOptions & { name: string }): Promise<ForecastModel> {
  const Q = c.quantiles.length;
  const family: Family = {
    outputs: ['forecast'],
    rows: (series, opts) => ({ rows: series.map((x) => prepare20(x, c)), freq: series.map((_, i) => timesFmFrequencyIndex(opts.frequencies?.[i])) }),
    decode: (i, rows, out, horizon) => {
      const { shift, scale } = rows[i];
      const o = out.forecast[i];
      const values = new Float32Array(Q * horizon);
      const mean = new Float32Array(horizon);
      for (let h = 0; h < horizon; h++) {
        mean[h] = o[h * (Q + 1)] * scale + shift;
        for (let q = 0; q < Q; q++) {
          values[q * horizon + h] = o[h * (Q + 1) + 1 + q] * scale + shift;
        }
      }
      return { values, mean };
    },
  };
  return timesFmModel(graphPath, { ...c, family, options });
}

/**
 * A built TimesFM 2.5 graph (`checkpoint/families/timesfm-2.5.ts`) as a {@link ForecastModel}, with
 * transformers' semantics: the last `context_length` values, global RevIN over the zero-padded context
 * (unbiased std), the forecast of x averaged with the flipped forecast of −x (`force_flip_invariance`), the
 * continuous quantile head (each level = its spread − the median spread + the point median), de-normalised,
 * clamped at 0 for non-negative inputs (`infer_is_positive`, per series unless `clampScope: 'batch'`).
 * `mean` = column `decode_index` (the 0.5 level: transformers' `mean_predictions` and the timesfm library's
 * point forecast), levels = `config.quantiles`.
 */
export async function createTimesFm25(graphPath: string, c: TimesFm25Config, options: TimesFmOptions & { name: string }): Promise<ForecastModel> {
  const Q = c.quantiles.length;
  const flip = options.forceFlipInvariance ?? c.force_flip_invariance;
  const clamp = options.truncateNegative ?? c.infer_is_positive;
  const m = Math.min(c.decode_index, Q);
  const family: Family = {
    outputs: ['point', 'quantile_spread'],
    rows: (series) =>
      ({
        rows: series.flatMap((x) => {
          const g = globalScale(x, c.context_length);
          return flip ? [prepare25(x, g, c.patch_length, 1), prepare25(x, g, c.patch_length, -1)] : [prepare25(x, g, c.patch_length, 1)];
        }),
      }),
    decode: (i, rows, out, horizon, series) => {
      const r = flip ? 2 * i : i;
      const head = (name: string, row: number, h: number, col: number): number => out[name][row][h * (Q + 1) + col] * rows[row].scale + rows[row].shift;
      // Flip invariance: (f(x) − flip(f(−x))) / 2, where flip keeps column 0 and reverses the levels.
      const both = (name: string, h: number, col: number): number =>
        flip ? (head(name, r, h, col) - head(name, r + 1, h, col === 0 ? 0 : Q + 1 - col)) / 2 : head(name, r, h, col);
      const g = globalScale(series[i], c.context_length);
      const positive = clamp && (options.clampScope === 'batch' ? batchNonNegative(series) : nonNegative(series[i]));
      const final = (v: number): number => {
        const y = v * g.std + g.mean;
        return positive ? Math.max(y, 0) : y;
      };
      const values = new Float32Array(Q * horizon);
      const mean = new Float32Array(horizon);
      for (let h = 0; h < horizon; h++) {
        const median = both('point', h, m);
        const medianSpread = both('quantile_spread', h, m);
        const continuous = c.use_continuous_quantile_head && h < c.output_quantile_len;
        for (let col = 1; col <= Q; col++) {
          const v = continuous && col !== m ? both('quantile_spread', h, col) - medianSpread + median : both('point', h, col);
          values[(col - 1) * horizon + h] = final(v);
        }
        mean[h] = final(median);
      }
      return { values, mean };
    },
  };
  return timesFmModel(graphPath, { ...c, family, options });
}

function nonNegative(x: Float64Array): boolean {
  return x.every((v) => v >= 0);
}

const batchMemo = new WeakMap<readonly Float64Array[], boolean>();
/** Whether every value of every series of a call is ≥ 0 (transformers' clamp rule), once per call. */
function batchNonNegative(series: readonly Float64Array[]): boolean {
  let hit = batchMemo.get(series);
  if (hit === undefined) {
    hit = series.every(nonNegative);
    batchMemo.set(series, hit);
  }
  return hit;
}

interface ModelSpec {
  quantiles: readonly number[];
  horizon_length: number;
  context_length: number;
  patch_length: number;
  family: Family;
  options: TimesFmOptions & { name: string };
}

async function timesFmModel(graphPath: string, spec: ModelSpec): Promise<ForecastModel> {
  const { family, options } = spec;
  const levels = ascendingLevels(spec.quantiles, 'config.json quantiles', 'quantiles');
  const batchSize = positiveInteger(options.batchSize ?? 32, 'batchSize');
  const session = await openForecastSession(graphPath, options.session, {
    family: 'TimesFM',
    inputs: ['patches', 'padding'],
    outputs: family.outputs,
    mismatch: (missing) => `not a TimesFM graph built by inferkit: missing ${missing.join(', ')}`,
  });
  const H = spec.horizon_length;
  const Q = levels.length;
  // Every call's rows share the session's one run queue (a server's overlapping calls share runs).
  const queue = timesFmRunQueue(session, { batchSize, outputs: family.outputs, rowValues: H * (Q + 1), ...(options.onRun ? { onRun: options.onRun } : {}) });
  return sessionForecastModel(session, {
    name: options.name,
    nativeHorizon: H,
    quantiles: levels,
    patchSize: spec.patch_length,
    contextLength: spec.context_length,
    rollout: 'median',
    horizonField: 'horizon_length',
    sharesRunQueue: true,
    async predict(_current, batch, horizon, opts) {
      const series = batch.map((s, i) => {
        const x = observed(s, spec.context_length);
        if (x.length === 0) {
          throw new InferkitError('invalid_request', `series ${i} has no observed value`, { param: `inputs[${i}].series` });
        }
        return x;
      });
      if (series.length === 0) {
        return { levels, values: [], mean: [] };
      }
      const { rows, freq } = family.rows(series, opts);
      const out = await runRows(queue, rows, family.outputs, freq, opts.signal);
      const decoded = series.map((_, i) => family.decode(i, rows, out, horizon, series));
      return { levels, values: decoded.map((d) => d.values), mean: decoded.map((d) => d.mean) };
    },
  });
}
