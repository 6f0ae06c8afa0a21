import type { EtsSpec } from './ets-spec.js';

/** Smoothing parameters: α (level), β (trend), γ (season), φ (damping; 1 = undamped, unused without trend). */
export interface EtsParams {
  alpha: number;
  beta: number;
  gamma: number;
  phi: number;
}

/**
 * States of an ETS model at one time: level, trend (0 without trend) and the last m seasonal
 * states, `season[k]` applying to the steps t ≡ k (mod m) counted from the first fitted value
 * (length 1 holding 0 or 1 when there is no season).
 */
export interface EtsStates {
  level: number;
  trend: number;
  season: Float64Array;
}

/** What one pass of the filter gives. */
export interface EtsFilterResult {
  /** −2 log-likelihood (Gaussian errors, variance concentrated out); Infinity when a multiplicative model leaves the positive range. */
  loss: number;
  /** Σ of squared model errors (absolute for additive error, relative for multiplicative). */
  sse: number;
  /** States after the last value. */
  final: EtsStates;
}

/**
 * Runs the ETS recursions over `y` (no missing values) from `init`. Both error types share the
 * state updates written with the one-step residual d = y − μ (Hyndman et al. 2008, Table 2.3):
 * ℓ = base + α·d/ŝ, b = φb + β·d/ŝ, s = s + γ·d/base, where base = ℓ + φb and ŝ = s for a
 * multiplicative season (else 1, and the season update divides by 1). They differ in the
 * likelihood: additive error uses d, multiplicative d/μ and adds 2·Σ log|μ|.
 * `fitted` (optional, length n) receives the one-step forecasts μ.
 */
export function etsFilter(y: ArrayLike<number>, spec: EtsSpec, p: EtsParams, init: EtsStates, fitted?: Float64Array): EtsFilterResult {
  const n = y.length;
  const m = init.season.length;
  const s = Float64Array.from(init.season);
  const seasonA = spec.season === 'A';
  const seasonM = spec.season === 'M';
  const errM = spec.error === 'M';
  const hasTrend = spec.trend !== 'N';
  const phi = spec.trend === 'Ad' ? p.phi : 1;
  const { alpha } = p;
  const beta = hasTrend ? p.beta : 0;
  const gamma = spec.season === 'N' ? 0 : p.gamma;
  let l = init.level;
  let b = hasTrend ? init.trend : 0;
  let sse = 0;
  let logSum = 0;
  // Product of μ, folded into logSum only when it nears the float range (one log per ~50 steps, not one per step).
  let prod = 1;
  let k = 0;
  for (let t = 0; t < n; t++) {
    const base = l + phi * b;
    const st = s[k];
    const mu = seasonA ? base + st : seasonM ? base * st : base;
    if (errM || seasonM) {
      if (!(mu > 0) || (seasonM && !(base > 0))) {
        return { loss: Number.POSITIVE_INFINITY, sse: Number.POSITIVE_INFINITY, final: { level: l, trend: b, season: s } };
      }
    }
    if (fitted !== undefined) {
      fitted[t] = mu;
    }
    const d = y[t] - mu;
    if (errM) {
      const e = d / mu;
      sse += e * e;
      prod *= mu;
      if (prod > 1e150 || prod < 1e-150) {
        logSum += Math.log(prod);
        prod = 1;
      }
    } else {
      sse += d * d;
    }
    const dl = seasonM ? d / st : d;
    l = base + alpha * dl;
    b = phi * b + beta * dl;
    if (seasonA) {
      s[k] = st + gamma * d;
    } else if (seasonM) {
      s[k] = st + (gamma * d) / base;
    }
    k = k + 1 === m ? 0 : k + 1;
  }
  // No rotation needed: s[k] still applies to the steps t ≡ k (mod m), now the future ones.
  logSum += Math.log(prod);
  const loss = n * Math.log((2 * Math.PI * Math.max(sse, Number.MIN_VALUE)) / n) + n + 2 * logSum;
  return { loss: Number.isFinite(loss) ? loss : Number.POSITIVE_INFINITY, sse, final: { level: l, trend: b, season: s } };
}
