import { InferkitError } from '../../../errors.js';
import { centredMovingAverage } from './moving-average.js';

/** Options of {@link mstlDecompose}. */
export interface MstlDecomposeOptions {
  /** Passes over all periods (each refines every component given the others). @default 2 */
  iterations?: number;
  /** Cycles averaged per phase, centred (an odd number; fewer at the ends). @default 7 */
  seasonalWindow?: number;
  /** Down-weight outliers (bisquare weights on the remainder) from the second pass on. @default true */
  robust?: boolean;
}

/** y = trend + Σ seasonal[k] + remainder. */
export interface MstlDecomposition {
  /** Periods, ascending, each with its seasonal component (length n). */
  periods: number[];
  seasonal: Float64Array[];
  trend: Float64Array;
  remainder: Float64Array;
}

/**
 * Multiple-seasonal decomposition in the spirit of MSTL (Bandara, Hyndman & Bergmeir 2021), with
 * a simpler smoother than STL's loess: for each period p (ascending) in turn, the other seasonal
 * components are removed, the result is detrended by a centred moving average of order p, and
 * the seasonal component is the (robustly weighted) mean, per phase t mod p, of the detrended
 * values over a centred window of `seasonalWindow` cycles — so a slowly changing seasonal shape
 * is followed — re-centred to sum ≈ 0 over every period. `iterations` passes let each component
 * see the others' latest estimate; from the second pass, bisquare weights (6 × median |remainder|)
 * keep outliers out of the seasonal means. Every loop is bounded by n × periods × window × passes.
 * Throws `invalid_request` naming `series[i]` (a missing or non-finite value) or `periods[i]`
 * (not an integer ≥ 2, or fewer than two cycles in the series).
 */
export function mstlDecompose(y: Float64Array, periods: readonly number[], options: MstlDecomposeOptions = {}): MstlDecomposition {
  const n = y.length;
  const bad = y.findIndex((v) => !Number.isFinite(v));
  if (bad >= 0) {
    throw new InferkitError('invalid_request', `series[${bad}]: MSTL needs finite values without gaps (got ${y[bad]}); fill or drop missing values first`, { param: 'series' });
  }
  periods.forEach((p, i) => {
    if (!(Number.isInteger(p) && p >= 2 && n >= 2 * p)) {
      throw new InferkitError('invalid_request', `periods[${i}]: expected an integer ≥ 2 with at least two cycles in the series (${n} values), got ${p}`, { param: `periods[${i}]` });
    }
  });
  const ps = [...new Set(periods)].sort((a, b) => a - b);
  const iterations = options.iterations ?? 2;
  const window = Math.max(1, options.seasonalWindow ?? 7);
  const seasonal = ps.map(() => new Float64Array(n));
  let weights: Float64Array = new Float64Array(n).fill(1);
  const x = new Float64Array(n);
  for (let it = 0; it < iterations; it++) {
    ps.forEach((p, k) => {
      x.set(y);
      seasonal.forEach((s, j) => {
        if (j !== k) {
          for (let t = 0; t < n; t++) {
            x[t] -= s[t];
          }
        }
      });
      const trend = centredMovingAverage(x, p);
      for (let t = 0; t < n; t++) {
        x[t] -= trend[t];
      }
      const s = phaseMeans(x, p, window, weights);
      const level = centredMovingAverage(s, p);
      for (let t = 0; t < n; t++) {
        seasonal[k][t] = s[t] - level[t];
      }
    });
    if (options.robust !== false && it + 1 < iterations) {
      weights = bisquare(remainderOf(y, seasonal, ps));
    }
  }
  const adjusted = Float64Array.from(y);
  seasonal.forEach((s) => s.forEach((v, t) => (adjusted[t] -= v)));
  const trend = centredMovingAverage(adjusted, ps.length > 0 ? ps[ps.length - 1] : 1);
  const remainder = adjusted.map((v, t) => v - trend[t]);
  return { periods: ps, seasonal, trend, remainder };
}

/** Weighted mean per phase over a centred window of cycles (same phase, cycles c - w/2 … c + w/2). */
function phaseMeans(x: Float64Array, p: number, window: number, weights: Float64Array): Float64Array {
  const n = x.length;
  const out = new Float64Array(n);
  const half = Math.floor(window / 2);
  const cycles = Math.ceil(n / p);
  for (let t = 0; t < n; t++) {
    const c = Math.floor(t / p);
    const phase = t - c * p;
    // Shift the window inward at the ends so it keeps `window` cycles when the series has them.
    let from = Math.max(0, c - half);
    let to = Math.min(cycles - 1, c + half);
    if (to - from < window - 1) {
      from = Math.max(0, Math.min(from, to - window + 1));
      to = Math.min(cycles - 1, Math.max(to, from + window - 1));
    }
    let sum = 0;
    let wsum = 0;
    for (let j = from; j <= to; j++) {
      const i = j * p + phase;
      if (i < n) {
        sum += weights[i] * x[i];
        wsum += weights[i];
      }
    }
    out[t] = wsum > 0 ? sum / wsum : 0;
  }
  return out;
}

function remainderOf(y: Float64Array, seasonal: Float64Array[], ps: number[]): Float64Array {
  const adjusted = Float64Array.from(y);
  seasonal.forEach((s) => s.forEach((v, t) => (adjusted[t] -= v)));
  const trend = centredMovingAverage(adjusted, ps.length > 0 ? ps[ps.length - 1] : 1);
  return adjusted.map((v, t) => v - trend[t]);
}

function bisquare(r: Float64Array): Float64Array {
  const abs = Float64Array.from(r, Math.abs).sort();
  const h = 6 * abs[Math.floor(abs.length / 2)];
  return r.map((v) => (h > 0 && Math.abs(v) < h ? (1 - (v / h) ** 2) ** 2 : h > 0 ? 0 : 1));
}
