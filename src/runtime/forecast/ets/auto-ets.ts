import { InferkitError, isInferkitError } from '../../../errors.js';
import { baselineModel, BASELINE_LEVELS, type BaselineOptions, type PointAndSpread } from '../baseline-model.js';
import { fillMissing } from '../fill-missing.js';
import type { ForecastModel } from '../forecast-model.js';
import { etsForecast, type EtsForecast } from './ets-forecast.js';
import { parseEtsName, type EtsTrend } from './ets-spec.js';
import { MIN_ETS_LENGTH, selectEts, type EtsSelection } from './select-ets.js';

/** Options of {@link autoEts}. */
export interface AutoEtsOptions extends BaselineOptions {
  /**
   * Fit only this model (`"AAdN"`, `"MAM"`…) instead of selecting by AICc; a series it cannot
   * describe (a multiplicative model on values ≤ 0, a seasonal one on fewer than two seasons) gets
   * the AICc choice instead of failing the batch. A name outside the family throws at construction.
   */
  model?: string;
  /** Consider damped trends. @default true */
  damped?: boolean;
  /** Sample paths for simulated intervals. @default 1000 */
  simulations?: number;
  /** Seed of the simulated intervals. @default 42 */
  seed?: number;
  /**
   * Most recent values fitted: a longer series is cut to its last `maxContext` values, so a
   * 50,000-point series fits in about the time of 1,000 (the likelihood's cost grows with the
   * length, and old history says little about the next steps). `Infinity` fits everything.
   * @default max(10 seasons, 1000) ({@link autoEtsContextLength})
   */
  maxContext?: number;
}

/** Fewest values AutoETS's context may be cut to (the least `maxContext`). */
export const MIN_AUTO_ETS_CONTEXT = 5;

/** The values AutoETS fits for season `m`: `maxContext`, else max(10·m, 1000). */
export function autoEtsContextLength(m: number, maxContext?: number): number {
  return maxContext ?? Math.max(10 * m, 1000);
}

/**
 * AutoETS as a {@link ForecastModel} (default name `auto-ets`): per series, the exponential
 * smoothing state-space model (error A/M, trend N/A/Ad, season N/A/M) with the lowest AICc
 * ({@link selectEts}), its point forecast as mean and median, and its prediction intervals —
 * analytic for additive-error models without a multiplicative season, simulated (seeded, so
 * repeatable) otherwise. Season from the frequency (SEASON_BY_FREQUENCY) or `season`, used when
 * the series holds two full seasons. Missing values: leading dropped, inner interpolated,
 * trailing carried forward. Only the last max(10 seasons, 1,000) values are fitted (`maxContext`).
 * Series with fewer than 5 observed values get a naive forecast (last value, random-walk spread)
 * instead of failing the batch. Short series (fewer than {@link SHORT_SERIES} values) choose among
 * no and damped trends only, and a positive series whose forecast would cross zero is refitted
 * with a damped trend, then with none (R's `ets` forecasts −55 for 20 monthly values in 80–120).
 */
export function autoEts(options: AutoEtsOptions = {}): ForecastModel {
  if (options.model !== undefined) {
    parseEtsName(options.model);
  }
  const cap = options.maxContext;
  if (cap !== undefined && !(cap === Number.POSITIVE_INFINITY || (Number.isInteger(cap) && cap >= MIN_AUTO_ETS_CONTEXT))) {
    throw new InferkitError('config', `autoEts option maxContext must be an integer ≥ ${MIN_AUTO_ETS_CONTEXT} or Infinity, got ${String(cap)}`, { param: 'maxContext' });
  }
  return baselineModel('auto-ets', (y, horizon, m) => etsRule(y, horizon, m, options), options, 2);
}

function etsRule(y: Float32Array, horizon: number, m: number, options: AutoEtsOptions): PointAndSpread {
  const cap = autoEtsContextLength(m, options.maxContext);
  const { values } = fillMissing(y.length > cap ? y.subarray(y.length - cap) : y);
  if (values.length < MIN_ETS_LENGTH) {
    return naive(values, horizon);
  }
  const forecastWith = (trends: readonly EtsTrend[] | undefined): EtsForecast => {
    const { fit } = fitFor(values, m, { ...options, trends });
    return etsForecast(fit, horizon, { levels: BASELINE_LEVELS, simulations: options.simulations, seed: options.seed });
  };
  // Short series: no undamped trend (extrapolating a line fitted to under two years is the classic failure).
  let f = forecastWith(values.length < SHORT_SERIES ? ['N', 'Ad'] : undefined);
  // A positive series whose forecast crosses zero: a damped trend, else none (the data never went there).
  const positive = values.every((v) => v > 0);
  for (const trends of [['N', 'Ad'], ['N']] as const) {
    if (!positive || f.point.every((v) => v > 0) || options.model !== undefined) {
      break;
    }
    f = forecastWith(trends);
  }
  return { point: f.point, sd: f.sd ?? new Float64Array(horizon), quantiles: f.quantiles };
}

/** Fewer values than this (two years of monthly data) never get an undamped trend by default. */
export const SHORT_SERIES = 24;

/** The asked-for model, else (when this series cannot take it: non-positive values, too short for its season) the AICc choice. */
function fitFor(values: Float64Array, m: number, options: AutoEtsOptions & { trends?: readonly EtsTrend[] }): EtsSelection {
  if (options.model !== undefined) {
    try {
      return selectEts(values, { season: m, model: options.model, damped: options.damped });
    } catch (e) {
      if (!(isInferkitError(e) && e.param === 'model')) {
        throw e;
      }
    }
  }
  return selectEts(values, { season: m, damped: options.damped, trends: options.trends });
}

function naive(x: Float64Array, horizon: number): PointAndSpread {
  const last = x.length > 0 ? x[x.length - 1] : Number.NaN;
  let s = 0;
  for (let t = 1; t < x.length; t++) {
    s += (x[t] - x[t - 1]) ** 2;
  }
  const sigma = x.length > 1 ? Math.sqrt(s / (x.length - 1)) : 0;
  return {
    point: new Float64Array(horizon).fill(last),
    sd: Float64Array.from({ length: horizon }, (_, h) => sigma * Math.sqrt(h + 1)),
  };
}
