import type { Frequency } from '../../contract/enums.js';
import type { ForecastModel, ModelForecast, PredictOptions } from './forecast-model.js';
import { normalQuantile, seasonalPeriods, seasonFor } from './seasonality.js';

/** Quantile levels every baseline answers natively (other levels are interpolated by the protocol). */
export const BASELINE_LEVELS: readonly number[] = [0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.975, 0.99];
/** Standard normal quantiles at {@link BASELINE_LEVELS}. */
const Z = BASELINE_LEVELS.map(normalQuantile);

/** Options shared by the baselines. */
export interface BaselineOptions {
  /** Name requests are checked against. */
  name?: string;
  /** Season length for every series, overriding the one from each series' frequency (see `seasonalPeriods`). */
  season?: number;
}

/** A point forecast and its standard deviation per step (Gaussian quantiles are built from them). */
export interface PointAndSpread {
  point: Float64Array;
  sd: Float64Array;
  /** Quantiles at {@link BASELINE_LEVELS}, level-major `[levels × horizon]`, when the rule has its own (simulated) ones; `sd` is then unused. */
  quantiles?: Float64Array;
}

/**
 * Per-series forecasting rule of a baseline: `season` is already resolved (1 = none); `periods` are
 * every seasonal period the series' frequency suggests that fits its length (e.g. `[48, 336]` for
 * half-hourly data), or `[season]` when the options set one — for rules with several seasons.
 */
export type BaselineRule = (series: Float32Array, horizon: number, season: number, periods?: readonly number[]) => PointAndSpread;

/**
 * Wraps a per-series rule as a {@link ForecastModel}: any horizon in one call (`nativeHorizon`
 * Infinity), patch size 1, quantiles `point + z_q · sd` (or the rule's own) at {@link BASELINE_LEVELS}, mean = point.
 * `minCycles` = how many full seasons a series needs before its season is used.
 */
export function baselineModel(name: string, rule: BaselineRule, options: BaselineOptions, minCycles: number): ForecastModel {
  const levels = BASELINE_LEVELS;
  return {
    name: options.name ?? name,
    nativeHorizon: Number.POSITIVE_INFINITY,
    quantiles: levels,
    patchSize: 1,
    async predict(batch: readonly Float32Array[], horizon: number, opts: PredictOptions = {}): Promise<ModelForecast> {
      const values: Float32Array[] = [];
      const mean: Float32Array[] = [];
      batch.forEach((series, i) => {
        opts.signal?.throwIfAborted();
        const freq: Frequency | undefined = opts.frequencies?.[i];
        const season = seasonFor(freq, series.length, options.season, minCycles);
        const periods = options.season !== undefined ? [season] : seasonalPeriods(freq, series.length, minCycles);
        const f = rule(series, horizon, season, periods);
        values.push(baselineLevels(f, horizon));
        mean.push(Float32Array.from(f.point));
      });
      return { levels, values, mean };
    },
    async dispose(): Promise<void> {},
  };
}

/** A rule's forecast level-major at {@link BASELINE_LEVELS} (`[levels × horizon]`): its own quantiles, else `point + z_q · sd`. */
export function baselineLevels(f: PointAndSpread, horizon: number): Float32Array {
  const v = new Float32Array(Z.length * horizon);
  for (let q = 0; q < Z.length; q++) {
    for (let h = 0; h < horizon; h++) {
      v[q * horizon + h] = f.quantiles !== undefined ? f.quantiles[q * horizon + h] : f.point[h] + Z[q] * f.sd[h];
    }
  }
  return v;
}

/** Index of the last non-NaN value, or -1. */
export function lastObserved(y: Float32Array): number {
  for (let t = y.length - 1; t >= 0; t--) {
    if (!Number.isNaN(y[t])) {
      return t;
    }
  }
  return -1;
}
