import { baselineModel, type BaselineOptions, type PointAndSpread } from './baseline-model.js';
import { calibratedRule } from './calibrated-rule.js';
import { fillMissing } from './fill-missing.js';
import type { ForecastModel } from './forecast-model.js';
import { classicalSeasonalIndices } from './seasonality.js';

/**
 * The Theta method (Assimakopoulos & Nikolopoulos 2000, in Hyndman & Billah's SES-with-drift
 * form) — chosen over damped Holt-Winters because it has one smoothing parameter (fast, stable
 * fits on short series) and was among the best on the M3 monthly and quarterly series.
 *
 * 1. Missing values: leading ones dropped, inner ones linearly interpolated, trailing ones carried forward.
 * 2. Season m (from the frequency or `season`) is used when the series holds ≥ 2 seasons and the
 *    lag-m autocorrelation is significant at 90%; the series is then deseasonalised by classical
 *    decomposition (multiplicative when all values are > 0, additive otherwise).
 * 3. SES with α minimising the in-sample one-step squared error (grid 0.01…0.99), plus half the
 *    least-squares slope: `ŷ_h = ℓ_n + (b/2)·((h-1) + (1-(1-α)^n)/α)`, reseasonalised.
 * 4. Spread: the larger of the model's SES forecast variance, sd_h = σ·√(1 + α²(h-1)) with σ the
 *    RMS of the one-step residuals, and the RMS of the method's own in-sample h-step errors (from
 *    every origin ≥ 3, with the fitted α and slope; relative to the forecast when all values are
 *    > 0) — the SES variance alone ignores the drift's error and covered only ~65% at 80%. Scaled
 *    by the seasonal index when multiplicative; Gaussian quantiles.
 * 5. Then widened, where needed, by {@link calibratedRule}: refitted at 3 hold-out origins inside
 *    the history, by the factor that would have put 80% of those errors inside the 80% interval
 *    (0.80 coverage on the classic backtests; 4 fits per series instead of 1).
 */
export function theta(options: BaselineOptions = {}): ForecastModel {
  return baselineModel('theta', calibratedRule(thetaRule), options, 2);
}

function thetaRule(y: Float32Array, horizon: number, m: number): PointAndSpread {
  const point = new Float64Array(horizon).fill(Number.NaN);
  const sd = new Float64Array(horizon).fill(Number.NaN);
  const { values: x, first } = fillMissing(y);
  if (first < 0) {
    return { point, sd };
  }
  const n = x.length;
  const multiplicative = x.every((v) => v > 0);
  const season = m > 1 && n >= 2 * m && isSeasonal(x, m) ? classicalSeasonalIndices(x, m, multiplicative, first) : undefined;
  const d = season === undefined ? x : x.map((v, t) => deseason(v, season[(first + t) % m], multiplicative));
  const alpha = bestAlpha(d);
  const { level, sigma } = ses(d, alpha);
  const slope = olsSlope(d);
  const drift = (1 - (1 - alpha) ** n) / alpha;
  const empirical = inSampleErrors(d, alpha, slope, horizon, multiplicative);
  for (let h = 1; h <= horizon; h++) {
    const p = level + (slope / 2) * (h - 1 + drift);
    const model = sigma * Math.sqrt(1 + alpha * alpha * (h - 1));
    const e = empirical[h - 1];
    const s = Number.isNaN(e) ? model : Math.max(model, multiplicative ? e * Math.abs(p) : e);
    const idx = season === undefined ? 0 : season[(y.length + h - 1) % m];
    point[h - 1] = season === undefined ? p : multiplicative ? p * idx : p + idx;
    sd[h - 1] = season !== undefined && multiplicative ? s * idx : s;
  }
  return { point, sd };
}

/**
 * RMS per step h of the method's own in-sample errors: from every origin o ≥ 3 (o values seen),
 * the forecast `L_o + (b/2)·((h-1) + (1-(1-α)^o)/α)` against d[o+h-1], relative to the forecast
 * when `relative`. NaN for a step with no origin.
 */
function inSampleErrors(d: Float64Array, alpha: number, slope: number, horizon: number, relative: boolean): Float64Array {
  const n = d.length;
  const sum = new Float64Array(horizon);
  const count = new Float64Array(horizon);
  let level = d[0];
  let decay = 1 - alpha;
  for (let o = 1; o < n; o++) {
    // level = L_o (after o values); decay = (1-α)^o.
    if (o >= 3) {
      const drift = (1 - decay) / alpha;
      for (let h = 1; h <= horizon && o + h - 1 < n; h++) {
        const f = level + (slope / 2) * (h - 1 + drift);
        const e = relative ? d[o + h - 1] / f - 1 : d[o + h - 1] - f;
        sum[h - 1] += e * e;
        count[h - 1]++;
      }
    }
    level += alpha * (d[o] - level);
    decay *= 1 - alpha;
  }
  return sum.map((v, h) => (count[h] > 0 ? Math.sqrt(v / count[h]) : Number.NaN));
}

function deseason(v: number, s: number, multiplicative: boolean): number {
  return multiplicative ? v / s : v - s;
}

/** Lag-m autocorrelation beyond the 90% bound `1.645·√((1 + 2Σ_{k<m} r_k²)/n)`. */
function isSeasonal(x: Float64Array, m: number): boolean {
  const n = x.length;
  const mu = x.reduce((a, b) => a + b, 0) / n;
  const c0 = x.reduce((a, v) => a + (v - mu) ** 2, 0);
  if (c0 === 0) {
    return false;
  }
  const r = (k: number): number => {
    let s = 0;
    for (let t = k; t < n; t++) {
      s += (x[t] - mu) * (x[t - k] - mu);
    }
    return s / c0;
  };
  let acc = 0;
  for (let k = 1; k < m; k++) {
    acc += r(k) ** 2;
  }
  return Math.abs(r(m)) > 1.645 * Math.sqrt((1 + 2 * acc) / n);
}

function ses(d: Float64Array, alpha: number): { level: number; sigma: number; sse: number } {
  let level = d[0];
  let sse = 0;
  for (let t = 1; t < d.length; t++) {
    const e = d[t] - level;
    sse += e * e;
    level += alpha * e;
  }
  return { level, sse, sigma: d.length > 1 ? Math.sqrt(sse / (d.length - 1)) : 0 };
}

function bestAlpha(d: Float64Array): number {
  let best = 0.5;
  let bestSse = Number.POSITIVE_INFINITY;
  for (let k = 1; k <= 99; k++) {
    const { sse } = ses(d, k / 100);
    if (sse < bestSse) {
      bestSse = sse;
      best = k / 100;
    }
  }
  return best;
}

function olsSlope(d: Float64Array): number {
  const n = d.length;
  if (n < 2) {
    return 0;
  }
  const tMean = (n - 1) / 2;
  const yMean = d.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let t = 0; t < n; t++) {
    num += (t - tMean) * (d[t] - yMean);
    den += (t - tMean) ** 2;
  }
  return num / den;
}
