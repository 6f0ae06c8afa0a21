import { InferkitError } from '../../../errors.js';
import { baselineModel, BASELINE_LEVELS, type BaselineOptions, type PointAndSpread } from '../baseline-model.js';
import { fillMissing } from '../fill-missing.js';
import type { ForecastModel } from '../forecast-model.js';
import { normalQuantile } from '../seasonality.js';

/** The intermittent-demand methods. */
export type IntermittentMethod = 'croston' | 'croston-sba' | 'tsb' | 'adida' | 'imapa';

/** The methods, for messages and registration. */
export const INTERMITTENT_METHODS: readonly IntermittentMethod[] = ['croston', 'croston-sba', 'tsb', 'adida', 'imapa'];

/** Options of {@link intermittent}. */
export interface IntermittentOptions extends BaselineOptions {
  /** Smoothing weight of the demand sizes and intervals (Croston, SBA) or sizes and probability (TSB). @default 0.1 */
  alpha?: number;
}

/**
 * Intermittent-demand forecasting (many zeros, occasional demand) as a {@link ForecastModel}, flat
 * forecasts of the demand rate per period:
 * - `croston`: SES (weight α) on the non-zero demand sizes z and on the intervals p between them, ẑ/p̂ (Croston 1972);
 * - `croston-sba`: the same times 1 − α/2, which removes Croston's upward bias (Syntetos & Boylan 2005);
 * - `tsb`: SES on the sizes when demand occurs and, every period, on the probability of demand, p̂·ẑ (Teunter, Syntetos & Babai 2011): it decays towards 0 when demand stops;
 * - `adida`: the series summed over buckets of k = mean interval between demands, SES (α by least squares) on the sums, / k (Nikolopoulos et al. 2011);
 * - `imapa`: ADIDA's forecast averaged over every k = 1…mean interval (Petropoulos & Kourentzes 2015).
 * Spread: the RMS of the method's own one-step in-sample errors; quantiles Gaussian around the rate,
 * cut at 0 when no value is negative (demand cannot be). Missing values: leading dropped, inner
 * interpolated, trailing carried. No demand at all → 0 with no spread. Season is not used.
 */
export function intermittent(method: IntermittentMethod, options: IntermittentOptions = {}): ForecastModel {
  if (!INTERMITTENT_METHODS.includes(method)) {
    throw new InferkitError('config', `unknown intermittent method "${String(method)}"; expected one of ${INTERMITTENT_METHODS.join(', ')}`, { param: 'method' });
  }
  const alpha = options.alpha ?? 0.1;
  if (!(alpha > 0 && alpha <= 1)) {
    throw new InferkitError('config', `intermittent option alpha must be in (0, 1], got ${String(alpha)}`, { param: 'alpha' });
  }
  return baselineModel(method, (y, horizon) => intermittentRule(y, horizon, method, alpha), { ...options, season: 1 }, 1);
}

function intermittentRule(y: Float32Array, horizon: number, method: IntermittentMethod, alpha: number): PointAndSpread {
  const { values: x } = fillMissing(y);
  const rate = x.length === 0 ? Number.NaN : fitted(x, method, alpha);
  const path = fittedPath(x, method, alpha);
  let sse = 0;
  let count = 0;
  for (let t = 1; t < x.length; t++) {
    if (Number.isFinite(path[t - 1])) {
      sse += (x[t] - path[t - 1]) ** 2;
      count++;
    }
  }
  const sd = count > 0 ? Math.sqrt(sse / count) : 0;
  const nonNegative = x.every((v) => v >= 0);
  const quantiles = new Float64Array(BASELINE_LEVELS.length * horizon);
  BASELINE_LEVELS.forEach((level, q) => {
    const v = rate + normalQuantile(level) * sd;
    quantiles.fill(nonNegative ? Math.max(0, v) : v, q * horizon, (q + 1) * horizon);
  });
  return { point: new Float64Array(horizon).fill(rate), sd: new Float64Array(horizon).fill(sd), quantiles };
}

/** The method's forecast rate from the whole series. */
function fitted(x: Float64Array, method: IntermittentMethod, alpha: number): number {
  if (!x.some((v) => v !== 0)) {
    return 0;
  }
  switch (method) {
    case 'croston':
      return croston(x, alpha);
    case 'croston-sba':
      return (1 - alpha / 2) * croston(x, alpha);
    case 'tsb':
      return tsb(x, alpha);
    case 'adida':
      return adida(x, Math.max(1, Math.round(meanInterval(x))));
    case 'imapa': {
      const K = Math.max(1, Math.round(meanInterval(x)));
      let s = 0;
      for (let k = 1; k <= K; k++) {
        s += adida(x, k);
      }
      return s / K;
    }
  }
}

/** The forecast made after each prefix x[0…t] (NaN before the first demand), for the in-sample errors; one pass. */
function fittedPath(x: Float64Array, method: IntermittentMethod, alpha: number): Float64Array {
  const out = new Float64Array(x.length).fill(Number.NaN);
  if (method === 'adida' || method === 'imapa') {
    // A flat path at the full-series rate (refitting the aggregates per prefix would cost n fits).
    const first = x.findIndex((v) => v !== 0);
    if (first >= 0) {
      out.fill(fitted(x, method, alpha), first);
    }
    return out;
  }
  const factor = method === 'croston-sba' ? 1 - alpha / 2 : 1;
  let z = Number.NaN;
  let p = Number.NaN;
  let since = 0;
  for (let t = 0; t < x.length; t++) {
    since++;
    const d = x[t] !== 0 ? 1 : 0;
    if (method === 'tsb') {
      if (Number.isNaN(z)) {
        if (d === 1) {
          z = x[t];
          p = 1 / (t + 1);
        }
      } else {
        p += alpha * (d - p);
        z += d === 1 ? alpha * (x[t] - z) : 0;
      }
      out[t] = p * z;
    } else {
      if (d === 1) {
        z = Number.isNaN(z) ? x[t] : z + alpha * (x[t] - z);
        p = Number.isNaN(p) ? since : p + alpha * (since - p);
        since = 0;
      }
      out[t] = (factor * z) / p;
    }
  }
  return out;
}

/** Croston's ẑ / p̂: SES on sizes and on intervals, started at the first demand and first interval. */
function croston(x: Float64Array, alpha: number): number {
  let z = Number.NaN;
  let p = Number.NaN;
  let since = 0;
  for (const v of x) {
    since++;
    if (v !== 0) {
      z = Number.isNaN(z) ? v : z + alpha * (v - z);
      p = Number.isNaN(p) ? since : p + alpha * (since - p);
      since = 0;
    }
  }
  return z / p;
}

/** TSB's p̂·ẑ: the probability of demand smoothed every period, the size when demand occurs. */
function tsb(x: Float64Array, alpha: number): number {
  const first = x.findIndex((v) => v !== 0);
  let z = x[first];
  let p = 1 / (first + 1);
  for (let t = first + 1; t < x.length; t++) {
    const d = x[t] !== 0 ? 1 : 0;
    p += alpha * (d - p);
    if (d === 1) {
      z += alpha * (x[t] - z);
    }
  }
  return p * z;
}

/** ADIDA with bucket k: sums over the last ⌊n/k⌋ whole buckets, SES with the least-squares α (grid 0.01…0.99), / k. */
function adida(x: Float64Array, k: number): number {
  const buckets = Math.floor(x.length / k);
  if (buckets < 1) {
    return x.reduce((a, b) => a + b, 0) / x.length;
  }
  const start = x.length - buckets * k;
  const sums = Float64Array.from({ length: buckets }, (_, b) => {
    let s = 0;
    for (let j = 0; j < k; j++) {
      s += x[start + b * k + j];
    }
    return s;
  });
  let best = Number.POSITIVE_INFINITY;
  let level = sums[0];
  for (let a = 0.01; a < 1; a += 0.01) {
    let l = sums[0];
    let sse = 0;
    for (let t = 1; t < sums.length; t++) {
      sse += (sums[t] - l) ** 2;
      l += a * (sums[t] - l);
    }
    if (sse < best) {
      best = sse;
      level = l;
    }
  }
  return level / k;
}

/** Mean number of periods between demands (from the first demand on); 1 when demand is never absent. */
function meanInterval(x: Float64Array): number {
  const idx: number[] = [];
  x.forEach((v, t) => {
    if (v !== 0) {
      idx.push(t);
    }
  });
  if (idx.length < 2) {
    return Math.max(1, x.length / Math.max(1, idx.length));
  }
  return (idx[idx.length - 1] - idx[0]) / (idx.length - 1);
}
