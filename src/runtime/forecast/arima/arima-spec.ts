/**
 * A seasonal ARIMA(p,d,q)(P,D,Q)[m] specification and the polynomial algebra the fit and the
 * forecast share. Conventions (as R's `arima`): AR polynomial `1 − Σ φ_i B^i`, MA polynomial
 * `1 + Σ θ_j B^j`; the expanded (multiplied-out) coefficient arrays hold φ_1… / θ_1… at index 0….
 */
export interface ArimaOrder {
  p: number;
  d: number;
  q: number;
  P: number;
  D: number;
  Q: number;
  /** Seasonal period (1 = non-seasonal; P = D = Q = 0 then). */
  m: number;
  /** A constant in the differenced series: the mean when d + D = 0, the drift when d + D = 1. */
  constant: boolean;
}

/** R's way of printing a model: `ARIMA(2,1,1)(0,1,0)[12] with drift`. */
export function arimaName(o: ArimaOrder, xregColumns = 0): string {
  const seasonal = o.m > 1 && o.P + o.D + o.Q > 0 ? `(${o.P},${o.D},${o.Q})[${o.m}]` : '';
  const base = `ARIMA(${o.p},${o.d},${o.q})${seasonal}`;
  const constant = o.constant ? (o.d + o.D === 0 ? ' with non-zero mean' : ' with drift') : o.d + o.D === 0 && xregColumns === 0 ? ' with zero mean' : '';
  return xregColumns > 0 ? `Regression with ${base} errors${constant}` : `${base}${constant}`;
}

/** Product of two polynomials given by their full coefficient arrays (index = power of B). */
export function polyMul(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const out = new Float64Array(a.length + b.length - 1);
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== 0) {
      for (let j = 0; j < b.length; j++) {
        out[i + j] += a[i] * b[j];
      }
    }
  }
  return out;
}

/** Full polynomial `1 + sign·Σ c_i B^{step·i}` (sign −1 for AR coefficients). */
function lagPoly(c: ArrayLike<number>, step: number, sign: number): Float64Array {
  const out = new Float64Array(c.length * step + 1);
  out[0] = 1;
  for (let i = 0; i < c.length; i++) {
    out[(i + 1) * step] = sign * c[i];
  }
  return out;
}

/** Expanded AR coefficients of `(1 − Σφ_i B^i)(1 − ΣΦ_j B^{mj})` as φ*_1…φ*_{p+mP}. */
export function expandAr(phi: ArrayLike<number>, sphi: ArrayLike<number>, m: number): Float64Array {
  const full = polyMul(lagPoly(phi, 1, -1), lagPoly(sphi, m, -1));
  return full.subarray(1).map((v) => -v);
}

/** Expanded MA coefficients of `(1 + Σθ_i B^i)(1 + ΣΘ_j B^{mj})` as θ*_1…θ*_{q+mQ}. */
export function expandMa(theta: ArrayLike<number>, stheta: ArrayLike<number>, m: number): Float64Array {
  return polyMul(lagPoly(theta, 1, 1), lagPoly(stheta, m, 1)).subarray(1).slice();
}

/** Full differencing polynomial `(1 − B)^d (1 − B^m)^D`. */
export function differencingPoly(d: number, D: number, m: number): Float64Array {
  let poly: Float64Array = Float64Array.of(1);
  for (let i = 0; i < d; i++) {
    poly = polyMul(poly, [1, -1]);
  }
  for (let i = 0; i < D; i++) {
    poly = polyMul(poly, lagPoly([1], m, -1));
  }
  return poly;
}

/** `(1 − B)^d (1 − B^m)^D x`, which is `order` values shorter than x (order = d + mD). */
export function difference(x: ArrayLike<number>, d: number, D: number, m: number): Float64Array {
  const poly = differencingPoly(d, D, m);
  const k = poly.length - 1;
  const out = new Float64Array(Math.max(0, x.length - k));
  for (let t = k; t < x.length; t++) {
    let s = 0;
    for (let j = 0; j <= k; j++) {
      s += poly[j] * x[t - j];
    }
    out[t - k] = s;
  }
  return out;
}

/**
 * Whether the AR polynomial `1 − Σ c_i B^i` has every root outside the circle of radius `radius`
 * (≥ 1): the step-down (Schur–Cohn / inverse Durbin–Levinson) recursion on `c_i·radius^i` keeps
 * every partial autocorrelation inside (−1, 1). For an MA polynomial `1 + Σθ B^j`, pass −θ.
 */
export function rootsOutside(c: ArrayLike<number>, radius = 1): boolean {
  let a = Float64Array.from(c, (v, i) => v * radius ** (i + 1));
  while (a.length > 0 && a[a.length - 1] === 0) {
    a = a.subarray(0, a.length - 1);
  }
  for (let k = a.length; k >= 1; k--) {
    const r = a[k - 1];
    if (!(Math.abs(r) < 1)) {
      return false;
    }
    const next = new Float64Array(k - 1);
    for (let j = 0; j < k - 1; j++) {
      next[j] = (a[j] + r * a[k - 2 - j]) / (1 - r * r);
    }
    a = next;
  }
  return true;
}

/**
 * Monahan/Jones map from unconstrained reals to the coefficients of a stationary AR polynomial:
 * tanh gives partial autocorrelations in (−1, 1), Durbin–Levinson turns them into φ_1…φ_k.
 */
export function stationaryFromFree(u: ArrayLike<number>): Float64Array {
  const k = u.length;
  const phi = new Float64Array(k);
  const prev = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    const r = Math.tanh(u[j]);
    prev.set(phi);
    phi[j] = r;
    for (let i = 0; i < j; i++) {
      phi[i] = prev[i] - r * prev[j - 1 - i];
    }
  }
  return phi;
}

/** Inverse of {@link stationaryFromFree} (coefficients must be stationary; clipped just inside ±1). */
export function freeFromStationary(phi: ArrayLike<number>): Float64Array {
  let a = Float64Array.from(phi);
  const u = new Float64Array(a.length);
  for (let k = a.length; k >= 1; k--) {
    const r = Math.max(-0.999, Math.min(0.999, a[k - 1]));
    u[k - 1] = Math.atanh(r);
    const next = new Float64Array(k - 1);
    for (let j = 0; j < k - 1; j++) {
      next[j] = (a[j] + r * a[k - 2 - j]) / (1 - r * r);
    }
    a = next;
  }
  return u;
}
