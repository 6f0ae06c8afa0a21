import type { EtsStates } from './ets-filter.js';
import type { EtsSpec } from './ets-spec.js';
import { classicalSeasonalIndices } from '../seasonality.js';

/**
 * Starting states by the usual heuristic (Hyndman et al. 2008, §2.6.1): the seasonal states from
 * a classical decomposition (centred moving average) of the first two or three seasons,
 * normalised to sum 0 (additive) or average 1 (multiplicative); then level and trend from a
 * least-squares line through the first max(10, 2m) seasonally adjusted values (level = their
 * mean when there is no trend). Needs n ≥ 2m for a season (callers check).
 */
export function initialStates(y: ArrayLike<number>, spec: EtsSpec, m: number): EtsStates {
  const n = y.length;
  const multiplicative = spec.season === 'M';
  let season: Float64Array = Float64Array.of(multiplicative ? 1 : 0);
  const adjusted = Float64Array.from(y);
  if (spec.season !== 'N' && m > 1) {
    season = seasonalFigure(y, m, multiplicative, n >= 3 * m ? 3 * m : 2 * m);
    for (let t = 0; t < n; t++) {
      adjusted[t] = multiplicative ? y[t] / season[t % m] : y[t] - season[t % m];
    }
  }
  const k = Math.min(Math.max(10, 2 * m), n);
  if (spec.trend === 'N' || k < 2) {
    let sum = 0;
    for (let t = 0; t < k; t++) {
      sum += adjusted[t];
    }
    return { level: sum / k, trend: 0, season };
  }
  // Line a + b·t through t = 1…k; the state before the first value is at t = 0.
  const tMean = (k + 1) / 2;
  let yMean = 0;
  for (let t = 0; t < k; t++) {
    yMean += adjusted[t] / k;
  }
  let num = 0;
  let den = 0;
  for (let t = 0; t < k; t++) {
    num += (t + 1 - tMean) * (adjusted[t] - yMean);
    den += (t + 1 - tMean) ** 2;
  }
  const slope = num / den;
  return { level: yMean - slope * tMean, trend: slope, season };
}

/**
 * Seasonal indices of the first `span` values (span ≥ 2m): detrended by a centred moving average of
 * order m (2×m for even m), averaged per position t mod m, normalised.
 */
export function seasonalFigure(y: ArrayLike<number>, m: number, multiplicative: boolean, span: number): Float64Array {
  return classicalSeasonalIndices(y, m, multiplicative, 0, Math.min(span, y.length));
}
