import { InferkitError } from '../../../errors.js';
import type { ArimaFit } from './arima-fit.js';
import { difference, differencingPoly, expandAr, expandMa, polyMul } from './arima-spec.js';

/** Point forecast and its standard deviation per step. */
export interface ArimaForecast {
  point: Float64Array;
  sd: Float64Array;
}

/**
 * Forecasts `horizon` steps from a fit: the ARMA part from the Kalman state after the last value
 * (a ← T a), plus the regression on the differenced future regressors (`futureXreg`, one column
 * per fitted xreg column, each `horizon` long; the constant needs none), integrated back through
 * `(1 − B)^d (1 − B^m)^D`. Standard deviation σ·√(Σ_{j<h} ψ_j²) with ψ the weights of the whole
 * ARIMA model (differencing included), as for a model whose state is known after the last value,
 * and σ² the bias-corrected innovation variance (`sigma2Unbiased`), as R's `forecast(auto.arima(y))`.
 * Throws `invalid_request` naming `future_covariates` when the future regressors do not match.
 */
export function arimaForecast(fit: ArimaFit, horizon: number, futureXreg: readonly ArrayLike<number>[] = []): ArimaForecast {
  const { d, D, m } = fit.order;
  if (futureXreg.length !== fit.xreg.length || futureXreg.some((c) => c.length < horizon)) {
    throw new InferkitError('invalid_request', `future_covariates: the model was fitted with ${fit.xreg.length} regressor column(s); give as many, each ${horizon} steps long`, { param: 'future_covariates' });
  }
  const n = fit.y.length;
  const delta = differencingPoly(d, D, m);
  const k = delta.length - 1;
  // Differenced future regressors: difference each column over [past, future] and keep the last horizon rows.
  const dxFuture = fit.xreg.map((past, j) => {
    const joined = new Float64Array(past.length + horizon);
    joined.set(past);
    for (let h = 0; h < horizon; h++) {
      joined[past.length + h] = futureXreg[j][h];
    }
    return difference(joined, d, D, m).subarray(-horizon);
  });
  const phi = expandAr(fit.phi, fit.sphi, m);
  const r = fit.state.length;
  const phiR = new Float64Array(r);
  phiR.set(phi.subarray(0, r));
  const a = Float64Array.from(fit.state);
  const y = new Float64Array(n + horizon);
  y.set(fit.y);
  const point = new Float64Array(horizon);
  for (let h = 0; h < horizon; h++) {
    let w = a[0];
    for (let j = 0; j < dxFuture.length; j++) {
      w += dxFuture[j][h] * fit.beta[j];
    }
    if (fit.order.constant) {
      w += fit.beta[fit.beta.length - 1];
    }
    let v = w;
    for (let j = 1; j <= k; j++) {
      v -= delta[j] * y[n + h - j];
    }
    y[n + h] = v;
    point[h] = v;
    const a0 = a[0];
    for (let i = 0; i < r - 1; i++) {
      a[i] = phiR[i] * a0 + a[i + 1];
    }
    a[r - 1] = phiR[r - 1] * a0;
  }
  const psi = psiWeights(polyMul(arPoly(phi), delta), expandMa(fit.theta, fit.stheta, m), horizon);
  const sd = new Float64Array(horizon);
  let acc = 0;
  for (let h = 0; h < horizon; h++) {
    acc += psi[h] * psi[h];
    sd[h] = Math.sqrt(fit.sigma2Unbiased * acc);
  }
  return { point, sd };
}

/** Full AR polynomial 1 − Σ φ_i B^i. */
function arPoly(phi: Float64Array): Float64Array {
  const out = new Float64Array(phi.length + 1);
  out[0] = 1;
  for (let i = 0; i < phi.length; i++) {
    out[i + 1] = -phi[i];
  }
  return out;
}

/** ψ_0…ψ_{count−1} of θ(B)/a(B), a a full polynomial with a_0 = 1 and θ the MA coefficients θ_1…. */
export function psiWeights(a: Float64Array, theta: Float64Array, count: number): Float64Array {
  const psi = new Float64Array(count);
  for (let j = 0; j < count; j++) {
    let s = j === 0 ? 1 : j <= theta.length ? theta[j - 1] : 0;
    for (let i = 1; i < a.length && i <= j; i++) {
      s -= a[i] * psi[j - i];
    }
    psi[j] = s;
  }
  return psi;
}
