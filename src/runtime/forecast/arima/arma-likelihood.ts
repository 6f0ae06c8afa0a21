/**
 * Exact Gaussian likelihood of a zero-mean ARMA process by the Kalman filter, in the state-space
 * form of Harvey (1989) / Gardner, Harvey & Phillips (1980): state dimension r = max(p, q + 1),
 * transition T with φ in its first column and ones above the diagonal, disturbance loading
 * R = (1, θ_1, …, θ_{r−1}), observation = first state. The innovation variance is concentrated out.
 *
 * Cost: the initial state covariance is the stationary one, built in O(r² + p³) from the ARMA
 * autocovariances (first row) and the Lyapunov recursion P[i][j] = P[i+1][j+1] + … (the rest);
 * each step is O(r²) (T's structure, no matrix products) until the prediction variance has
 * converged to 1, after which the filter runs its steady state, O(r) per step (AS 154's switch).
 */

/** What the filter returns for one parameter vector. */
export interface ArmaFilterResult {
  /** Σ v_t² / F_t over observed steps. */
  ssq: number;
  /** Σ log F_t. */
  sumlog: number;
  /** Observed steps. */
  nu: number;
  /** Predicted state a_{n+1|n} after the last value (its first entry is the one-step forecast). */
  state: Float64Array;
  /** Standardised innovations v_t / √F_t (NaN where the value is missing), when asked for. */
  residuals?: Float64Array;
}

/** Autocovariances γ(0…maxLag) of the ARMA process with unit innovation variance, and ψ_0…ψ_maxLag. */
export function armaAutocovariance(phi: Float64Array, theta: Float64Array, maxLag: number): { gamma: Float64Array; psi: Float64Array } {
  const p = phi.length;
  const q = theta.length;
  const L = Math.max(maxLag, p, q);
  const psi = new Float64Array(L + 1);
  psi[0] = 1;
  for (let j = 1; j <= L; j++) {
    let s = j <= q ? theta[j - 1] : 0;
    for (let i = 1; i <= Math.min(j, p); i++) {
      s += phi[i - 1] * psi[j - i];
    }
    psi[j] = s;
  }
  // c_k = Σ_{j=k}^{q} θ_j ψ_{j−k}, θ_0 = 1.
  const c = new Float64Array(L + 1);
  for (let k = 0; k <= q; k++) {
    let s = 0;
    for (let j = k; j <= q; j++) {
      s += (j === 0 ? 1 : theta[j - 1]) * psi[j - k];
    }
    c[k] = s;
  }
  const gamma = new Float64Array(L + 1);
  if (p === 0) {
    gamma.set(c.subarray(0, L + 1));
    return { gamma, psi };
  }
  // γ(k) − Σ φ_i γ(|k − i|) = c_k for k = 0…p: a (p+1)-square system.
  const n = p + 1;
  const A = new Float64Array(n * n);
  const b = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    A[k * n + k] += 1;
    for (let i = 1; i <= p; i++) {
      A[k * n + Math.abs(k - i)] -= phi[i - 1];
    }
    b[k] = c[k];
  }
  solveInPlace(A, b, n);
  gamma.set(b);
  for (let k = n; k <= L; k++) {
    let s = c[k];
    for (let i = 1; i <= p; i++) {
      s += phi[i - 1] * gamma[k - i];
    }
    gamma[k] = s;
  }
  return { gamma, psi };
}

/** Gaussian elimination with partial pivoting; the solution replaces b. */
function solveInPlace(A: Float64Array, b: Float64Array, n: number): void {
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++) {
      if (Math.abs(A[r * n + col]) > Math.abs(A[piv * n + col])) {
        piv = r;
      }
    }
    if (piv !== col) {
      for (let j = 0; j < n; j++) {
        [A[col * n + j], A[piv * n + j]] = [A[piv * n + j], A[col * n + j]];
      }
      [b[col], b[piv]] = [b[piv], b[col]];
    }
    const d = A[col * n + col];
    for (let r = col + 1; r < n; r++) {
      const f = A[r * n + col] / d;
      if (f !== 0) {
        for (let j = col; j < n; j++) {
          A[r * n + j] -= f * A[col * n + j];
        }
        b[r] -= f * b[col];
      }
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    let s = b[r];
    for (let j = r + 1; j < n; j++) {
      s -= A[r * n + j] * b[j];
    }
    b[r] = s / A[r * n + r];
  }
}

/**
 * First row of the stationary state covariance, unit innovation variance: P[0][0] = γ(0) and
 * P[0][j] = Σ_{l=1}^{r−j} φ_{j+l} γ(l) + Σ_{l=0}^{r−1−j} θ_{j+l} ψ_l (the state's j-th entry is
 * Σ_l φ_{j+l} w_{t−l} + Σ_l θ_{j+l} e_{t−l}). All the Chandrasekhar start needs.
 */
export function stationaryFirstRow(phiR: Float64Array, R: Float64Array, phi: Float64Array, theta: Float64Array): Float64Array {
  const r = R.length;
  const { gamma, psi } = armaAutocovariance(phi, theta, r);
  const row = new Float64Array(r);
  row[0] = gamma[0];
  for (let j = 1; j < r; j++) {
    let s = 0;
    for (let l = 1; l <= r - j; l++) {
      const f = phiR[j + l - 1];
      if (f !== 0) {
        s += f * gamma[l];
      }
    }
    for (let l = 0; l <= r - 1 - j; l++) {
      const c = R[j + l];
      if (c !== 0) {
        s += c * psi[l];
      }
    }
    row[j] = s;
  }
  return row;
}

/** Stationary covariance of the state (r × r, row-major), unit innovation variance. */
export function stationaryStateCovariance(phiR: Float64Array, R: Float64Array, phi: Float64Array, theta: Float64Array): Float64Array {
  const r = R.length;
  const row = stationaryFirstRow(phiR, R, phi, theta);
  const P = new Float64Array(r * r);
  for (let j = 0; j < r; j++) {
    P[j] = row[j];
    P[j * r] = row[j];
  }
  // P = T P Tᵀ + R Rᵀ elementwise, from the bottom-right corner up.
  for (let i = r - 1; i >= 1; i--) {
    for (let j = r - 1; j >= i; j--) {
      const v =
        (i + 1 < r && j + 1 < r ? P[(i + 1) * r + j + 1] : 0) +
        phiR[i] * phiR[j] * P[0] +
        (j + 1 < r ? phiR[i] * P[j + 1] : 0) +
        (i + 1 < r ? phiR[j] * P[i + 1] : 0) +
        R[i] * R[j];
      P[i * r + j] = v;
      P[j * r + i] = v;
    }
  }
  return P;
}

/**
 * Runs the filter over `w` (NaN = missing: no update) for ARMA coefficients φ (length p) and θ
 * (length q). Throws nothing; a non-positive prediction variance gives `ssq = Infinity`.
 */
export function armaFilter(w: Float64Array, phi: Float64Array, theta: Float64Array, keepResiduals = false): ArmaFilterResult {
  return w.some(Number.isNaN) ? denseFilter(w, phi, theta, keepResiduals) : chandrasekharFilter(w, phi, theta, keepResiduals);
}

/**
 * The same filter by the Chandrasekhar recursions (Morf, Sidhu & Kailath 1974; Herbst 2015): from
 * the stationary start, P_{t+1} − P_t stays of rank one, W_t M_t W_tᵀ, so the gain K_t = T P_t Z′/F_t
 * and F_t are updated in O(r) per step without P. Needs every value present (a missing one breaks
 * the time invariance the recursions rest on).
 */
function chandrasekharFilter(w: Float64Array, phi: Float64Array, theta: Float64Array, keepResiduals: boolean): ArmaFilterResult {
  const r = Math.max(phi.length, theta.length + 1);
  const phiR = new Float64Array(r + 1);
  phiR.set(phi);
  const R = new Float64Array(r);
  R[0] = 1;
  R.set(theta, 1);
  const P0 = stationaryFirstRow(phiR.subarray(0, r), R, phi, theta);
  const residuals = keepResiduals ? new Float64Array(w.length) : undefined;
  let F = P0[0];
  // K = T P Z′ / F, W = K, M = −F: P_2 − P_1 = −K F Kᵀ when P_1 is the stationary covariance.
  const K = new Float64Array(r + 1);
  const W = new Float64Array(r + 1);
  const TW = new Float64Array(r);
  for (let i = 0; i < r; i++) {
    K[i] = (phiR[i] * P0[0] + (i + 1 < r ? P0[i + 1] : 0)) / F;
  }
  W.set(K);
  let M = -F;
  const a = new Float64Array(r + 1);
  let ssq = 0;
  let sumlog = 0;
  const n = w.length;
  for (let t = 0; t < n; t++) {
    if (!(F > 0)) {
      return { ssq: Number.POSITIVE_INFINITY, sumlog: 0, nu: 1, state: a.subarray(0, r), residuals };
    }
    const v = w[t] - a[0];
    ssq += (v * v) / F;
    sumlog += Math.log(F);
    if (residuals !== undefined) {
      residuals[t] = v / Math.sqrt(F);
    }
    // a ← T a + K v.
    const a0 = a[0];
    for (let i = 0; i < r; i++) {
      a[i] = phiR[i] * a0 + a[i + 1] + K[i] * v;
    }
    if (t === n - 1) {
      break;
    }
    const w0 = W[0];
    if (w0 !== 0 && M !== 0) {
      const Fn = F + w0 * w0 * M;
      for (let i = 0; i < r; i++) {
        TW[i] = phiR[i] * w0 + W[i + 1];
      }
      for (let i = 0; i < r; i++) {
        K[i] = (K[i] * F + TW[i] * M * w0) / Fn;
      }
      M *= Fn / F;
      for (let i = 0; i < r; i++) {
        W[i] = TW[i] - K[i] * w0;
      }
      F = Fn;
    } else {
      for (let i = 0; i < r; i++) {
        TW[i] = phiR[i] * w0 + W[i + 1];
      }
      W.set(TW);
    }
  }
  return { ssq, sumlog, nu: n, state: a.slice(0, r), residuals };
}

function denseFilter(w: Float64Array, phi: Float64Array, theta: Float64Array, keepResiduals: boolean): ArmaFilterResult {
  const p = phi.length;
  const q = theta.length;
  const r = Math.max(p, q + 1);
  const phiR = new Float64Array(r);
  phiR.set(phi);
  const R = new Float64Array(r);
  R[0] = 1;
  R.set(theta, 1);
  let P: Float64Array = stationaryStateCovariance(phiR, R, phi, theta);
  let Pn: Float64Array = new Float64Array(r * r);
  const a = new Float64Array(r);
  const row0 = new Float64Array(r);
  const residuals = keepResiduals ? new Float64Array(w.length).fill(Number.NaN) : undefined;
  let ssq = 0;
  let sumlog = 0;
  let nu = 0;
  let steady = false;
  for (let t = 0; t < w.length; t++) {
    const y = w[t];
    if (!Number.isNaN(y)) {
      const F = steady ? 1 : P[0];
      if (!(F > 0)) {
        return { ssq: Number.POSITIVE_INFINITY, sumlog: 0, nu: 1, state: a, residuals };
      }
      const v = y - a[0];
      ssq += (v * v) / F;
      sumlog += Math.log(F);
      nu++;
      if (residuals !== undefined) {
        residuals[t] = v / Math.sqrt(F);
      }
      if (steady) {
        for (let i = 0; i < r; i++) {
          a[i] += R[i] * v;
        }
      } else {
        for (let i = 0; i < r; i++) {
          a[i] += (P[i * r] / F) * v;
        }
        row0.set(P.subarray(0, r));
        for (let i = 0; i < r; i++) {
          const ki = row0[i] / F;
          if (ki !== 0) {
            for (let j = 0; j < r; j++) {
              P[i * r + j] -= ki * row0[j];
            }
          }
        }
      }
    }
    // Predict: a ← T a.
    const a0 = a[0];
    for (let i = 0; i < r - 1; i++) {
      a[i] = phiR[i] * a0 + a[i + 1];
    }
    a[r - 1] = phiR[r - 1] * a0;
    if (!steady) {
      // P ← T P Tᵀ + R Rᵀ.
      const p00 = P[0];
      for (let i = 0; i < r; i++) {
        for (let j = i; j < r; j++) {
          const v =
            (i + 1 < r && j + 1 < r ? P[(i + 1) * r + j + 1] : 0) +
            phiR[i] * phiR[j] * p00 +
            (j + 1 < r ? phiR[i] * P[j + 1] : 0) +
            (i + 1 < r ? phiR[j] * P[i + 1] : 0) +
            R[i] * R[j];
          Pn[i * r + j] = v;
          Pn[j * r + i] = v;
        }
      }
      [P, Pn] = [Pn, P];
      steady = Math.abs(P[0] - 1) < 1e-9 && !Number.isNaN(y);
    }
  }
  return { ssq, sumlog, nu, state: a, residuals };
}

/**
 * Conditional sum of squares (R's "CSS"): residuals e_t = w_t − Σφ_i w_{t−i} − Σθ_j e_{t−j} from
 * t = p onwards with earlier residuals 0. Returns the sum and how many terms it holds.
 */
export function armaCss(w: Float64Array, phi: Float64Array, theta: Float64Array, scratch = new Float64Array(w.length)): { ssq: number; nu: number } {
  const p = phi.length;
  const e = scratch;
  e.fill(0);
  // Only the non-zero coefficients (a seasonal model's expanded polynomials are mostly zeros).
  const ar = nonZero(phi);
  const ma = nonZero(theta);
  let ssq = 0;
  let nu = 0;
  for (let t = p; t < w.length; t++) {
    let s = w[t];
    for (let i = 0; i < ar.length; i += 2) {
      s -= ar[i + 1] * w[t - 1 - ar[i]];
    }
    for (let j = 0; j < ma.length && ma[j] < t; j += 2) {
      s -= ma[j + 1] * e[t - 1 - ma[j]];
    }
    e[t] = s;
    ssq += s * s;
    nu++;
  }
  return { ssq, nu };
}

/** Pairs (index, value) of the non-zero entries, flattened. */
function nonZero(c: Float64Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < c.length; i++) {
    if (c[i] !== 0) {
      out.push(i, c[i]);
    }
  }
  return out;
}
