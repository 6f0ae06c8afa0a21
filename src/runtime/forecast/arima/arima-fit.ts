import { InferkitError } from '../../../errors.js';
import { armaCss, armaFilter } from './arma-likelihood.js';
import { bfgs } from './bfgs.js';
import { difference, expandAr, expandMa, rootsOutside, stationaryFromFree, type ArimaOrder } from './arima-spec.js';

/** How a model is estimated: exact Gaussian likelihood (CSS start, then ML, as R's "CSS-ML") or conditional sum of squares only. */
export type ArimaMethod = 'ml' | 'css';

/** A fitted (regression with) seasonal ARIMA (errors). */
export interface ArimaFit {
  order: ArimaOrder;
  /** AR, MA, seasonal AR and seasonal MA coefficients (R's sign conventions). */
  phi: Float64Array;
  theta: Float64Array;
  sphi: Float64Array;
  stheta: Float64Array;
  /** Regression coefficients: one per xreg column, then the constant (mean or drift per step of the differenced series) when `order.constant`. */
  beta: Float64Array;
  /** Innovation variance, maximum-likelihood estimate Σ v²/F ÷ n_used (the one the likelihood and the CSS search use). */
  sigma2: number;
  /**
   * Innovation variance as R's `auto.arima` reports it and forecasts with: the same sum of squares
   * over n_used − (ARMA + regression coefficients), the bias-corrected estimate (`myarima` in R's
   * forecast package); the prediction intervals use it.
   */
  sigma2Unbiased: number;
  /** Full Gaussian log-likelihood of the differenced series (R's `loglik`; for `css`, the conditional one). */
  loglik: number;
  aic: number;
  aicc: number;
  /** Values the likelihood used: n − d − m·D. */
  nobs: number;
  method: ArimaMethod;
  /** The fitted series (gap-free) and its regressors, column-major, kept for the forecast. */
  y: Float64Array;
  xreg: readonly Float64Array[];
  /** Kalman predicted state of the ARMA part after the last value. */
  state: Float64Array;
  /** The optimiser's unconstrained parameters (partial autocorrelations through atanh, scaled regression offsets), for warm starts. */
  free: Float64Array;
}

/** Options of {@link fitArima}. */
export interface FitArimaOptions {
  /** Regressor columns, each as long as y (regression with ARIMA errors). */
  xreg?: readonly ArrayLike<number>[];
  /** @default 'ml' */
  method?: ArimaMethod;
  /**
   * Start the exact-likelihood search from a neighbouring fit (same d, D, m) instead of from a CSS
   * fit: its partial autocorrelations, padded with zeros (the same polynomial) or cut, and its
   * regression offsets when the columns are the same. The stepwise search uses it.
   */
  start?: ArimaFit;
  /** Most BFGS iterations of the exact-likelihood search (a warm start near the optimum needs few). @default 100 */
  maxIterations?: number;
}

const MAX_FREE = 8;

/**
 * Fits ARIMA(p,d,q)(P,D,Q)[m] (with a constant and regressors) by maximum likelihood as R's
 * `Arima` does: y and the regressors are differenced, the regression coefficients start from OLS
 * on the differenced data, the ARMA coefficients from zero; a conditional-sum-of-squares fit
 * gives the start of the exact (Kalman) likelihood maximisation (BFGS). The AR and MA polynomials
 * (non-seasonal and seasonal apart) are kept stationary/invertible by the partial-autocorrelation
 * map, so every likelihood evaluated is a proper one. Throws `invalid_request` naming `series`
 * when the differenced series is too short for the model.
 */
export function fitArima(y: ArrayLike<number>, order: ArimaOrder, options: FitArimaOptions = {}): ArimaFit {
  const { p, d, q, P, D, Q, m } = order;
  const yy = Float64Array.from(y);
  const xreg = (options.xreg ?? []).map((c) => Float64Array.from(c));
  const dy = difference(yy, d, D, m);
  const nstar = dy.length;
  const dx = xreg.map((c) => difference(c, d, D, m));
  if (order.constant) {
    dx.push(new Float64Array(nstar).fill(1));
  }
  const k = dx.length;
  const narma = p + q + P + Q;
  if (nstar < narma + k + 2) {
    throw new InferkitError('invalid_request', `series: ${yy.length} values are too few for ARIMA(${p},${d},${q})(${P},${D},${Q})[${m}]`, { param: 'series' });
  }
  const { beta: beta0, se } = ols(dy, dx);
  const w = new Float64Array(nstar);
  const scratch = new Float64Array(nstar);
  const unpack = (u: Float64Array): { phi: Float64Array; theta: Float64Array; sphi: Float64Array; stheta: Float64Array; beta: Float64Array } => {
    const part = (from: number, len: number): Float64Array => u.subarray(from, from + len).map((v) => Math.max(-MAX_FREE, Math.min(MAX_FREE, v)));
    return {
      phi: stationaryFromFree(part(0, p)),
      theta: stationaryFromFree(part(p, q)).map((v) => -v),
      sphi: stationaryFromFree(part(p + q, P)),
      stheta: stationaryFromFree(part(p + q + P, Q)).map((v) => -v),
      beta: beta0.map((b, j) => b + se[j] * u[narma + j]),
    };
  };
  const residualSeries = (beta: Float64Array): Float64Array => {
    for (let t = 0; t < nstar; t++) {
      let s = dy[t];
      for (let j = 0; j < k; j++) {
        s -= dx[j][t] * beta[j];
      }
      w[t] = s;
    }
    return w;
  };
  const css = (u: Float64Array): number => {
    const c = unpack(u);
    const r = armaCss(residualSeries(c.beta), expandAr(c.phi, c.sphi, m), expandMa(c.theta, c.stheta, m), scratch);
    return r.ssq > 0 ? 0.5 * Math.log(r.ssq / r.nu) : Number.NEGATIVE_INFINITY;
  };
  const ml = (u: Float64Array): number => {
    const c = unpack(u);
    const r = armaFilter(residualSeries(c.beta), expandAr(c.phi, c.sphi, m), expandMa(c.theta, c.stheta, m));
    return r.ssq > 0 ? 0.5 * Math.log(r.ssq / r.nu) + (0.5 * r.sumlog) / r.nu : Number.NEGATIVE_INFINITY;
  };
  const method = options.method ?? 'ml';
  const dim = narma + k;
  let u: Float64Array = new Float64Array(dim);
  if (options.start !== undefined && method === 'ml') {
    u = warmStart(options.start, order, k);
    u = bfgs(ml, u, { maxIterations: options.maxIterations ?? 100 }).x;
  } else if (narma > 0) {
    u = bfgs(css, u, { maxIterations: 100 }).x;
    if (method === 'ml') {
      // A CSS optimum on the edge (a unit MA root, say) would start ML where tanh is flat: start just inside.
      for (let j = 0; j < narma; j++) {
        u[j] = Math.max(-3, Math.min(3, u[j]));
      }
      u = bfgs(ml, u, { maxIterations: 100 }).x;
    }
  } else if (method === 'ml' && k > 0) {
    u = bfgs(ml, u, { maxIterations: 100 }).x;
  }
  const c = unpack(u);
  const phiF = expandAr(c.phi, c.sphi, m);
  const thetaF = expandMa(c.theta, c.stheta, m);
  residualSeries(c.beta);
  const filtered = armaFilter(w, phiF, thetaF);
  let sigma2: number;
  let sigma2Unbiased: number;
  let loglik: number;
  if (method === 'ml') {
    sigma2 = filtered.ssq / filtered.nu;
    sigma2Unbiased = filtered.ssq / Math.max(1, filtered.nu - dim);
    loglik = -0.5 * (filtered.nu * Math.log(2 * Math.PI * sigma2) + filtered.sumlog + filtered.nu);
  } else {
    const r = armaCss(w, phiF, thetaF);
    sigma2 = r.ssq / r.nu;
    sigma2Unbiased = r.ssq / Math.max(1, r.nu - dim);
    loglik = -0.5 * r.nu * (Math.log(2 * Math.PI * sigma2) + 1);
  }
  const npar = dim + 1;
  const aic = -2 * loglik + 2 * npar;
  const aicc = nstar - npar - 1 > 0 ? aic + (2 * npar * (npar + 1)) / (nstar - npar - 1) : Number.POSITIVE_INFINITY;
  return { order, ...c, sigma2, sigma2Unbiased, loglik, aic, aicc, nobs: nstar, method, y: yy, xreg, state: filtered.state, free: u };
}

/** The free parameters of `from` laid out for `order` with k regression columns (see {@link FitArimaOptions.start}). */
function warmStart(from: ArimaFit, order: ArimaOrder, k: number): Float64Array {
  const o = from.order;
  const parts: [number, number][] = [[o.p, order.p], [o.q, order.q], [o.P, order.P], [o.Q, order.Q]];
  const u = new Float64Array(order.p + order.q + order.P + order.Q + k);
  let src = 0;
  let dst = 0;
  for (const [had, wants] of parts) {
    for (let j = 0; j < wants; j++) {
      u[dst + j] = j < had ? Math.max(-3, Math.min(3, from.free[src + j])) : 0;
    }
    src += had;
    dst += wants;
  }
  const kFrom = from.free.length - src;
  if (kFrom === k) {
    u.set(from.free.subarray(src), dst);
  }
  return u;
}

/** Whether every AR and MA root of the fit lies outside radius `radius` (R's auto.arima refuses fits with a root within 1.01 of the unit circle). */
export function rootsClearOf(fit: ArimaFit, radius = 1.01): boolean {
  return [fit.phi, fit.sphi].every((c) => rootsOutside(c, radius)) && [fit.theta, fit.stheta].every((c) => rootsOutside(c.map((v) => -v), radius));
}

/** Least squares of y on columns x (no intercept unless a column is one): coefficients and their standard errors. */
function ols(y: Float64Array, x: readonly Float64Array[]): { beta: Float64Array; se: Float64Array } {
  const k = x.length;
  const n = y.length;
  if (k === 0) {
    return { beta: new Float64Array(0), se: new Float64Array(0) };
  }
  const A = new Float64Array(k * k);
  const b = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let t = 0; t < n; t++) {
        s += x[i][t] * x[j][t];
      }
      A[i * k + j] = s;
      A[j * k + i] = s;
    }
    let s = 0;
    for (let t = 0; t < n; t++) {
      s += x[i][t] * y[t];
    }
    b[i] = s;
  }
  const inv = invert(A, k);
  const beta = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      beta[i] += inv[i * k + j] * b[j];
    }
  }
  let rss = 0;
  for (let t = 0; t < n; t++) {
    let e = y[t];
    for (let j = 0; j < k; j++) {
      e -= x[j][t] * beta[j];
    }
    rss += e * e;
  }
  const s2 = rss / Math.max(1, n - k);
  const se = Float64Array.from({ length: k }, (_, i) => {
    const v = Math.sqrt(Math.max(0, s2 * inv[i * k + i]));
    return v > 0 && Number.isFinite(v) ? v : Math.max(1e-8, Math.abs(beta[i]) * 1e-3, 1e-8);
  });
  return { beta: beta.map((v) => (Number.isFinite(v) ? v : 0)), se };
}

/** Inverse of a symmetric k × k matrix by Gauss–Jordan (a ridge of 1e-10·trace keeps collinear columns finite). */
function invert(A: Float64Array, k: number): Float64Array {
  let trace = 0;
  for (let i = 0; i < k; i++) {
    trace += A[i * k + i];
  }
  const M = Float64Array.from(A);
  for (let i = 0; i < k; i++) {
    M[i * k + i] += 1e-10 * (trace / k + 1e-300);
  }
  const I = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    I[i * k + i] = 1;
  }
  for (let c = 0; c < k; c++) {
    let piv = c;
    for (let r = c + 1; r < k; r++) {
      if (Math.abs(M[r * k + c]) > Math.abs(M[piv * k + c])) {
        piv = r;
      }
    }
    for (let j = 0; j < k; j++) {
      [M[c * k + j], M[piv * k + j]] = [M[piv * k + j], M[c * k + j]];
      [I[c * k + j], I[piv * k + j]] = [I[piv * k + j], I[c * k + j]];
    }
    const d = M[c * k + c];
    for (let j = 0; j < k; j++) {
      M[c * k + j] /= d;
      I[c * k + j] /= d;
    }
    for (let r = 0; r < k; r++) {
      if (r !== c) {
        const f = M[r * k + c];
        for (let j = 0; j < k; j++) {
          M[r * k + j] -= f * M[c * k + j];
          I[r * k + j] -= f * I[c * k + j];
        }
      }
    }
  }
  return I;
}
