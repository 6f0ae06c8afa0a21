import { baselineModel, BASELINE_LEVELS, type BaselineOptions, type PointAndSpread } from '../baseline-model.js';
import { calibratedRule } from '../calibrated-rule.js';
import { etsForecast } from '../ets/ets-forecast.js';
import { MIN_ETS_LENGTH, selectEts } from '../ets/select-ets.js';
import { fillMissing } from '../fill-missing.js';
import type { ForecastModel } from '../forecast-model.js';
import { normalQuantile } from '../seasonality.js';
import { mstlDecompose, type MstlDecomposeOptions } from './mstl-decompose.js';

/** Options of {@link mstl}. */
export interface MstlOptions extends BaselineOptions, MstlDecomposeOptions {
  /**
   * Seasonal periods, e.g. `[48, 336]` for half-hourly data (daily and weekly cycles). Periods
   * that are not integers ≥ 2, or with fewer than two full cycles in a series, are dropped for it.
   * @default `[season]` when `season` is set, else every period of the series' frequency that fits (`seasonalPeriods`: `30min` → 48 and 336, `h` → 24 and 168)
   */
  periods?: readonly number[];
  /**
   * Scale the decomposition works on: `log` (seasonal swings proportional to the level; needs
   * values > 0), `none` (additive), or `auto` = log when every value is > 0 and a period is used.
   * @default "auto"
   */
  transform?: 'auto' | 'log' | 'none';
  /** Sample paths for the trend model's simulated intervals. @default 1000 */
  simulations?: number;
  /** Seed of the simulated intervals. @default 42 */
  seed?: number;
}

/**
 * MSTL forecasting as a {@link ForecastModel} (default name `mstl`): the series is decomposed
 * into one seasonal component per period, trend and remainder ({@link mstlDecompose}); the
 * seasonally adjusted series (trend + remainder) is forecast by AutoETS restricted to
 * non-seasonal models (AICc over error A/M × trend N/A/Ad), and each seasonal component is
 * extended naïvely (its last cycle repeated). Intervals are the ETS ones shifted by the seasonal
 * extension, widened where hold-out errors inside the history show them too narrow
 * ({@link calibratedRule}). With `transform` (default: logs for positive seasonal data) all of this
 * happens on logs and the quantiles are mapped back. Missing values: leading dropped, inner
 * interpolated, trailing carried forward; fewer than 5 values → the last value, no spread.
 */
export function mstl(options: MstlOptions = {}): ForecastModel {
  return baselineModel('mstl', calibratedRule((y, horizon, m, periods) => mstlRule(y, horizon, options.periods ?? (periods !== undefined && periods.length > 0 ? periods : [m]), options)), options, 2);
}

const Q10 = BASELINE_LEVELS.indexOf(0.1);
const Q90 = BASELINE_LEVELS.indexOf(0.9);

function mstlRule(y: Float32Array, horizon: number, periods: readonly number[], options: MstlOptions): PointAndSpread {
  const { values: raw } = fillMissing(y);
  const n = raw.length;
  const usable = periods.filter((p) => Number.isInteger(p) && p > 1 && n >= 2 * p);
  const log = options.transform === 'log' || (options.transform !== 'none' && usable.length > 0 && raw.every((v) => v > 0));
  const x = log ? raw.map(Math.log) : raw;
  if (n < MIN_ETS_LENGTH) {
    // Too short to decompose: the last value with a random walk's spread σ√h (σ = RMS step; 0 from one value).
    const last = n > 0 ? raw[n - 1] : Number.NaN;
    let s = 0;
    for (let t = 1; t < n; t++) {
      s += (raw[t] - raw[t - 1]) ** 2;
    }
    const sigma = n > 1 ? Math.sqrt(s / (n - 1)) : 0;
    return { point: new Float64Array(horizon).fill(last), sd: Float64Array.from({ length: horizon }, (_, h) => sigma * Math.sqrt(h + 1)) };
  }
  const dec = mstlDecompose(x, usable, options);
  const adjusted = x.map((v, t) => v - dec.seasonal.reduce((a, s) => a + s[t], 0));
  const { fit } = selectEts(adjusted, { season: 1 });
  const f = etsForecast(fit, horizon, { levels: BASELINE_LEVELS, simulations: options.simulations, seed: options.seed });
  const extension = new Float64Array(horizon);
  dec.periods.forEach((p, k) => {
    for (let h = 0; h < horizon; h++) {
      extension[h] += dec.seasonal[k][n - p + (h % p)];
    }
  });
  const point = f.point.map((v, h) => v + extension[h]);
  if (!log) {
    const quantiles = f.quantiles?.map((v, i) => v + extension[i % horizon]);
    return { point, sd: f.sd ?? new Float64Array(horizon), quantiles };
  }
  // Quantiles map through exp (monotone); the point becomes the median forecast on the original scale.
  const z = BASELINE_LEVELS.map(normalQuantile);
  const quantiles = new Float64Array(BASELINE_LEVELS.length * horizon);
  for (let q = 0; q < BASELINE_LEVELS.length; q++) {
    for (let h = 0; h < horizon; h++) {
      const v = f.quantiles !== undefined ? f.quantiles[q * horizon + h] + extension[h] : point[h] + z[q] * (f.sd?.[h] ?? 0);
      quantiles[q * horizon + h] = Math.exp(v);
    }
  }
  const mid = point.map(Math.exp);
  // sd on the original scale (used by the hold-out calibration): the central 80% band / (2·z_0.9).
  const sd = mid.map((_, h) => (quantiles[Q90 * horizon + h] - quantiles[Q10 * horizon + h]) / (2 * z[Q90]));
  return { point: mid, sd, quantiles };
}
