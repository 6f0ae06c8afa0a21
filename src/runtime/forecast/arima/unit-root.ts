import { mstlDecompose } from '../mstl/mstl-decompose.js';
import { difference } from './arima-spec.js';

/** KPSS 5% critical value of the level-stationarity statistic (Kwiatkowski et al. 1992, table 1). */
const KPSS_CRITICAL_5 = 0.463;

/** Whether x is constant (every value equal to the first, to 1e-12 relative). */
export function isConstant(x: ArrayLike<number>): boolean {
  for (let t = 1; t < x.length; t++) {
    if (Math.abs(x[t] - x[0]) > 1e-12 * (Math.abs(x[0]) + 1e-300)) {
      return false;
    }
  }
  return true;
}

/**
 * KPSS statistic for level stationarity: η = Σ S_t² / (n² s²), S the partial sums of x − x̄ and s²
 * the Newey–West long-run variance with Bartlett weights over `lags` lags (R forecast's `ndiffs`
 * uses trunc(3√n / 13)).
 */
export function kpssStatistic(x: ArrayLike<number>, lags = Math.trunc((3 * Math.sqrt(x.length)) / 13)): number {
  const n = x.length;
  let mean = 0;
  for (let t = 0; t < n; t++) {
    mean += x[t] / n;
  }
  const e = Float64Array.from(x, (v) => v - mean);
  let s = 0;
  let eta = 0;
  let s2 = 0;
  for (let t = 0; t < n; t++) {
    s += e[t];
    eta += s * s;
    s2 += e[t] * e[t];
  }
  for (let l = 1; l <= lags; l++) {
    let c = 0;
    for (let t = l; t < n; t++) {
      c += e[t] * e[t - l];
    }
    s2 += 2 * (1 - l / (lags + 1)) * c;
  }
  s2 /= n;
  return s2 > 0 ? eta / (n * n * s2) : 0;
}

/**
 * Non-seasonal differences d (0…maxD) as R's `ndiffs(test = "kpss")`: difference while the KPSS
 * test rejects level stationarity at 5% (statistic above 0.463 with trunc(3√n/13) lags, as
 * `ndiffs` calls `urca::ur.kpss`) and the result is not constant — with one guard R does not have:
 * a second (or later) difference is taken only when it lowers the variance, i.e. when the lag-1
 * autocorrelation of the series differenced so far exceeds ½ (var(Δz) = 2·var(z)·(1 − ρ₁)). A
 * random walk's first difference is close to white noise (ρ₁ ≈ 0); differencing it again only
 * doubles the variance and plants a unit MA root, yet KPSS rejects it whenever the mean increment
 * drifts (daily stock indices in a bull market: R's rule gives d = 2 and forecasts the recent
 * acceleration). Smooth I(2) series (austres, ρ₁ 0.6–0.7) keep d = 2.
 */
export function kpssDiffs(x: ArrayLike<number>, maxD = 2): number {
  let y: Float64Array = Float64Array.from(x);
  let d = 0;
  while (d < maxD && y.length > 2 && !isConstant(y) && kpssStatistic(y) > KPSS_CRITICAL_5 && (d === 0 || lag1Autocorrelation(y) > 0.5)) {
    y = difference(y, 1, 0, 1);
    d++;
  }
  return d;
}

/** Sample lag-1 autocorrelation of x (0 for a constant series). */
export function lag1Autocorrelation(x: ArrayLike<number>): number {
  const n = x.length;
  let mean = 0;
  for (let t = 0; t < n; t++) {
    mean += x[t] / n;
  }
  let num = 0;
  let den = 0;
  for (let t = 0; t < n; t++) {
    den += (x[t] - mean) ** 2;
    if (t > 0) {
      num += (x[t] - mean) * (x[t - 1] - mean);
    }
  }
  return den > 0 ? num / den : 0;
}

/**
 * Seasonal differences D (0 or 1) as R's `nsdiffs(test = "seas")`: 1 when the seasonal strength
 * max(0, 1 − var(remainder) / var(seasonal + remainder)) of a decomposition (here inferkit's
 * MSTL, R uses STL) exceeds 0.64 (Wang, Smith & Hyndman 2006). Needs ≥ 2 full seasons.
 */
export function seasonalDiffs(x: ArrayLike<number>, m: number): number {
  if (m < 2 || x.length < 2 * m || isConstant(x)) {
    return 0;
  }
  return seasonalStrength(Float64Array.from(x), m) > 0.64 ? 1 : 0;
}

/** Seasonal strength of x at period m (0…1). */
export function seasonalStrength(x: Float64Array, m: number): number {
  const dec = mstlDecompose(x, [m]);
  const seasonal = dec.seasonal[0];
  const both = dec.remainder.map((r, t) => r + seasonal[t]);
  const vb = variance(both);
  return vb > 0 ? Math.max(0, Math.min(1, 1 - variance(dec.remainder) / vb)) : 0;
}

function variance(x: ArrayLike<number>): number {
  const n = x.length;
  let mean = 0;
  for (let t = 0; t < n; t++) {
    mean += x[t] / n;
  }
  let s = 0;
  for (let t = 0; t < n; t++) {
    s += (x[t] - mean) ** 2;
  }
  return n > 1 ? s / (n - 1) : 0;
}
