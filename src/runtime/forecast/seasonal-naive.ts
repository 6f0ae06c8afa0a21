import { baselineModel, lastObserved, type BaselineOptions, type PointAndSpread } from './baseline-model.js';
import type { ForecastModel } from './forecast-model.js';

/**
 * Seasonal naive: step h repeats the value one season earlier (`y[n - m + (h-1) mod m]`); a
 * missing value there is taken from the same position one more season back, else the last
 * observed value. Season m from the frequency (SEASON_BY_FREQUENCY) or `season`; 1 (plain naive)
 * when the series is shorter than one season. Spread: σ = RMS of the observed in-sample seasonal
 * differences `y[t] - y[t-m]`, sd_h = σ·√(⌊(h-1)/m⌋ + 1) (random walk over seasons); Gaussian quantiles.
 */
export function seasonalNaive(options: BaselineOptions = {}): ForecastModel {
  return baselineModel('seasonal-naive', seasonalNaiveRule, options, 1);
}

function seasonalNaiveRule(y: Float32Array, horizon: number, m: number): PointAndSpread {
  const n = y.length;
  const last = lastObserved(y);
  const point = new Float64Array(horizon);
  const sd = new Float64Array(horizon);
  const sigma = rmsDiff(y, m) ?? rmsDiff(y, 1) ?? 0;
  for (let h = 1; h <= horizon; h++) {
    let idx = n - m + ((h - 1) % m);
    while (idx >= 0 && Number.isNaN(y[idx])) {
      idx -= m;
    }
    point[h - 1] = idx >= 0 ? y[idx] : last >= 0 ? y[last] : Number.NaN;
    sd[h - 1] = sigma * Math.sqrt(Math.floor((h - 1) / m) + 1);
  }
  return { point, sd };
}

/** RMS of `y[t] - y[t-lag]` over pairs with both values present; undefined when there is none. */
function rmsDiff(y: Float32Array, lag: number): number | undefined {
  let sum = 0;
  let count = 0;
  for (let t = lag; t < y.length; t++) {
    const d = y[t] - y[t - lag];
    if (!Number.isNaN(d)) {
      sum += d * d;
      count++;
    }
  }
  return count === 0 ? undefined : Math.sqrt(sum / count);
}
