import { baselineModel, lastObserved, type BaselineOptions, type PointAndSpread } from './baseline-model.js';
import type { ForecastModel } from './forecast-model.js';

/**
 * Seasonal naive: step h repeats the value one season earlier (`y[n - m + (h-1) mod m]`); a
 * missing value there is taken from the same position one more season back, else the last
 * observed value. Season m from the frequency (SEASON_BY_FREQUENCY) or `season`; 1 (plain naive)
 * when the series is shorter than one season.
 *
 * Spread: the method's own in-sample errors at that distance. Step h copies the value
 * L = m·(⌊(h-1)/m⌋ + 1) steps back, so its error is the lag-L difference `y[t] - y[t-L]`; sd_h is
 * their RMS over the history — relative to `y[t-L]` and scaled by the forecast when every value is
 * > 0 (a growing series' recent errors are larger than its old ones), absolute otherwise. When the
 * history holds no lag-L pair, sd_h = σ·√(⌊(h-1)/m⌋ + 1) with σ the RMS lag-m (else lag-1)
 * difference (random walk over seasons). Gaussian quantiles.
 */
export function seasonalNaive(options: BaselineOptions = {}): ForecastModel {
  return baselineModel('seasonal-naive', seasonalNaiveRule, options, 1);
}

function seasonalNaiveRule(y: Float32Array, horizon: number, m: number): PointAndSpread {
  const n = y.length;
  const last = lastObserved(y);
  const point = new Float64Array(horizon);
  const sd = new Float64Array(horizon);
  const sigma = rmsDiff(y, m, false) ?? rmsDiff(y, 1, false) ?? 0;
  const relative = y.every((v) => Number.isNaN(v) || v > 0);
  const byLag = new Map<number, number | undefined>();
  for (let h = 1; h <= horizon; h++) {
    let idx = n - m + ((h - 1) % m);
    while (idx >= 0 && Number.isNaN(y[idx])) {
      idx -= m;
    }
    point[h - 1] = idx >= 0 ? y[idx] : last >= 0 ? y[last] : Number.NaN;
    const seasons = Math.floor((h - 1) / m) + 1;
    const lag = m * seasons;
    if (!byLag.has(lag)) {
      byLag.set(lag, rmsDiff(y, lag, relative));
    }
    const rms = byLag.get(lag);
    sd[h - 1] = rms === undefined ? sigma * Math.sqrt(seasons) : relative ? rms * Math.abs(point[h - 1]) : rms;
  }
  return { point, sd };
}

/** RMS of `y[t] - y[t-lag]` (divided by `y[t-lag]` when `relative`) over pairs with both values present; undefined when there is none. */
function rmsDiff(y: Float32Array, lag: number, relative: boolean): number | undefined {
  let sum = 0;
  let count = 0;
  for (let t = lag; t < y.length; t++) {
    const d = relative ? y[t] / y[t - lag] - 1 : y[t] - y[t - lag];
    if (!Number.isNaN(d)) {
      sum += d * d;
      count++;
    }
  }
  return count === 0 ? undefined : Math.sqrt(sum / count);
}
