/** Options of {@link bfgs}. */
export interface BfgsOptions {
  /** Most iterations (line searches). @default 100 */
  maxIterations?: number;
  /** Stop when an iteration improves the value by less than `tolerance · (|f| + tolerance)`. @default 1e-8 */
  tolerance?: number;
  /** Finite-difference step of the numerical gradient. @default 1e-6 */
  step?: number;
}

/** Best point found, its value and how many times the objective ran. */
export interface BfgsResult {
  x: Float64Array;
  value: number;
  evaluations: number;
}

/**
 * Unconstrained quasi-Newton minimisation (BFGS inverse-Hessian update, as R's `optim(method =
 * "BFGS")` that `arima` uses) with forward-difference gradients and a backtracking (Armijo) line
 * search. Non-finite values count as +Infinity, so the search steps back from them. Bounded by
 * `maxIterations` line searches of at most 30 halvings each.
 */
export function bfgs(f: (x: Float64Array) => number, x0: ArrayLike<number>, options: BfgsOptions = {}): BfgsResult {
  const n = x0.length;
  const maxIter = options.maxIterations ?? 100;
  const tol = options.tolerance ?? 1e-8;
  const h = options.step ?? 1e-6;
  let evals = 0;
  const value = (x: Float64Array): number => {
    evals++;
    const v = f(x);
    return Number.isFinite(v) ? v : Number.POSITIVE_INFINITY;
  };
  // Forward differences from the point's known value (n evaluations), backward where the forward one is not finite.
  const grad = (x: Float64Array, fx0: number): Float64Array => {
    const g = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const xi = x[i];
      x[i] = xi + h;
      const fp = value(x);
      if (Number.isFinite(fp)) {
        g[i] = (fp - fx0) / h;
      } else {
        x[i] = xi - h;
        const fm = value(x);
        g[i] = Number.isFinite(fm) ? (fx0 - fm) / h : 0;
      }
      x[i] = xi;
    }
    return g;
  };
  let x = Float64Array.from(x0);
  let fx = value(x);
  if (n === 0 || !Number.isFinite(fx)) {
    return { x, value: fx, evaluations: evals };
  }
  let g = grad(x, fx);
  const H = identity(n);
  const dir = new Float64Array(n);
  for (let iter = 0; iter < maxIter; iter++) {
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) {
        s -= H[i * n + j] * g[j];
      }
      dir[i] = s;
    }
    let slope = dir.reduce((acc, d, i) => acc + d * g[i], 0);
    if (!(slope < 0)) {
      resetIdentity(H, n);
      dir.set(g.map((v) => -v));
      slope = -g.reduce((acc, v) => acc + v * v, 0);
      if (slope === 0) {
        break;
      }
    }
    let t = 1;
    let xn = x;
    let fn = Number.POSITIVE_INFINITY;
    for (let k = 0; k < 30; k++) {
      xn = x.map((v, i) => v + t * dir[i]);
      fn = value(xn);
      if (fn <= fx + 1e-4 * t * slope) {
        break;
      }
      t /= 2;
    }
    if (!(fn < fx)) {
      break;
    }
    const gn = grad(xn, fn);
    const s = xn.map((v, i) => v - x[i]);
    const y = gn.map((v, i) => v - g[i]);
    const improvement = fx - fn;
    x = xn;
    fx = fn;
    g = gn;
    if (improvement < tol * (Math.abs(fx) + tol)) {
      break;
    }
    updateInverseHessian(H, s, y, n);
  }
  return { x, value: fx, evaluations: evals };
}

function identity(n: number): Float64Array {
  const H = new Float64Array(n * n);
  resetIdentity(H, n);
  return H;
}

function resetIdentity(H: Float64Array, n: number): void {
  H.fill(0);
  for (let i = 0; i < n; i++) {
    H[i * n + i] = 1;
  }
}

/** H ← (I − ρ s yᵀ) H (I − ρ y sᵀ) + ρ s sᵀ, skipped when yᵀs ≤ 0 (curvature condition fails). */
function updateInverseHessian(H: Float64Array, s: Float64Array, y: Float64Array, n: number): void {
  const ys = y.reduce((acc, v, i) => acc + v * s[i], 0);
  if (!(ys > 1e-12)) {
    return;
  }
  const rho = 1 / ys;
  const Hy = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let v = 0;
    for (let j = 0; j < n; j++) {
      v += H[i * n + j] * y[j];
    }
    Hy[i] = v;
  }
  const yHy = y.reduce((acc, v, i) => acc + v * Hy[i], 0);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      H[i * n + j] += -rho * (Hy[i] * s[j] + s[i] * Hy[j]) + (rho * rho * yHy + rho) * s[i] * s[j];
    }
  }
}
