import type { Frequency } from '../contract/enums.js';
import { InferkitError } from '../errors.js';
import { interpolateQuantiles, medianPath } from '../protocol/forecast/interpolate-quantiles.js';
import { predictHorizon } from '../protocol/forecast/predict-horizon.js';
import type { ForecastModel } from '../runtime/forecast/forecast-model.js';
import { seasonFor } from '../runtime/forecast/seasonality.js';
import { mase, weightedQuantileLoss } from './metrics.js';

/** A series to backtest; null/NaN = missing. */
export interface EvalSeries {
  name: string;
  values: ArrayLike<number | null>;
  frequency: Frequency;
}

/** Options of {@link evaluate}. */
export interface EvaluateOptions {
  /** Steps forecast from each origin. */
  horizon: number;
  /** Forecast origins per series (the last one leaves exactly `horizon` values to test). @default 3 */
  folds?: number;
  /** Steps between consecutive origins. @default horizon */
  step?: number;
  /** Levels of the weighted quantile loss. @default [0.1, 0.2, …, 0.9] */
  quantiles?: readonly number[];
  /** MASE season for every series. @default from each series' frequency (SEASON_BY_FREQUENCY) */
  season?: number;
  /** Quantile levels bounding the interval whose coverage is reported. @default [0.1, 0.9] (the 80% interval) */
  interval?: readonly [number, number];
}

/** Scores of one series, averaged over its folds. */
export interface SeriesScore {
  name: string;
  /** Mean absolute scaled error of the median forecast (NaN when the in-sample scale is 0). */
  mase: number;
  /** Weighted quantile loss: mean over levels of 2·Σ pinball / Σ|y|. */
  wql: number;
  /** Folds that had enough history (≥ one season + 1 values before the origin). */
  folds: number;
  /** Share of present actuals inside the forecast's `interval` (NaN when none was present). */
  coverage: number;
}

/** Result of {@link evaluate}: per-series scores and their means over series with finite scores. */
export interface Evaluation {
  model: string;
  horizon: number;
  mase: number;
  wql: number;
  /** Share of all present actuals (every series, fold and step pooled) inside the forecast's `interval`. */
  coverage: number;
  series: SeriesScore[];
}

/**
 * Rolling-origin backtest: for fold k of F, the origin is `n - horizon - (F-1-k)·step`; the model
 * sees the values before it and forecasts `horizon` steps (rolled out beyond its native horizon,
 * as the forecast API does). MASE uses the median forecast, scaled by the in-sample mean absolute
 * seasonal difference (season from the frequency, 1 when the history is shorter than a season);
 * WQL uses the interpolated `quantiles`; coverage counts the actuals inside the `interval` quantiles
 * (interpolated like the forecast API's). One batched model call per fold.
 */
export async function evaluate(model: ForecastModel, series: readonly EvalSeries[], options: EvaluateOptions): Promise<Evaluation> {
  const { horizon } = options;
  const folds = options.folds ?? 3;
  const step = options.step ?? horizon;
  const levels = options.quantiles ?? [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
  if (!(Number.isInteger(horizon) && horizon > 0 && Number.isInteger(folds) && folds > 0 && step > 0)) {
    throw new InferkitError('invalid_request', `evaluate: horizon, folds and step must be positive integers (got ${horizon}, ${folds}, ${step})`);
  }
  const data = series.map((s) => Float32Array.from(s.values as ArrayLike<number | null>, (v) => v ?? Number.NaN));
  const interval = options.interval ?? [0.1, 0.9];
  const sums = series.map(() => ({ mase: 0, maseN: 0, wql: 0, wqlN: 0, folds: 0, inside: 0, present: 0 }));
  for (let k = 0; k < folds; k++) {
    const jobs = data.flatMap((y, i) => {
      const origin = y.length - horizon - (folds - 1 - k) * step;
      const m = seasonFor(series[i].frequency, origin, options.season);
      return origin >= m + 1 && y.subarray(0, origin).some((v) => !Number.isNaN(v)) ? [{ i, origin, m }] : [];
    });
    if (jobs.length === 0) {
      continue;
    }
    const f = await predictHorizon(model, jobs.map((j) => data[j.i].subarray(0, j.origin)), horizon, {
      frequencies: jobs.map((j) => series[j.i].frequency),
    });
    jobs.forEach(({ i, origin, m }, r) => {
      const train = data[i].subarray(0, origin);
      const actual = data[i].subarray(origin, origin + horizon);
      const s = sums[i];
      s.folds++;
      const e = mase(train, actual, medianPath(f.levels, f.values[r], horizon), m);
      if (Number.isFinite(e)) {
        s.mase += e;
        s.maseN++;
      }
      const [lo, hi] = interpolateQuantiles(f.levels, f.values[r], horizon, interval);
      for (let h = 0; h < actual.length; h++) {
        if (!Number.isNaN(actual[h])) {
          s.present++;
          s.inside += actual[h] >= lo[h] && actual[h] <= hi[h] ? 1 : 0;
        }
      }
      const w = weightedQuantileLoss(actual, interpolateQuantiles(f.levels, f.values[r], horizon, levels), levels);
      if (Number.isFinite(w)) {
        s.wql += w;
        s.wqlN++;
      }
    });
  }
  const scores = series.map((s, i): SeriesScore => ({
    name: s.name,
    mase: sums[i].maseN > 0 ? sums[i].mase / sums[i].maseN : Number.NaN,
    wql: sums[i].wqlN > 0 ? sums[i].wql / sums[i].wqlN : Number.NaN,
    folds: sums[i].folds,
    coverage: sums[i].present > 0 ? sums[i].inside / sums[i].present : Number.NaN,
  }));
  const inside = sums.reduce((a, s) => a + s.inside, 0);
  const present = sums.reduce((a, s) => a + s.present, 0);
  return {
    model: model.name,
    horizon,
    mase: finiteMean(scores.map((s) => s.mase)),
    wql: finiteMean(scores.map((s) => s.wql)),
    coverage: present > 0 ? inside / present : Number.NaN,
    series: scores,
  };
}

function finiteMean(xs: number[]): number {
  const ok = xs.filter(Number.isFinite);
  return ok.length === 0 ? Number.NaN : ok.reduce((a, b) => a + b, 0) / ok.length;
}
