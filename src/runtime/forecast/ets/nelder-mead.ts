/** Options of {@link nelderMead}. */
export interface NelderMeadOptions {
  /** Lower bound per coordinate (-Infinity = none). */
  lower: readonly number[];
  /** Upper bound per coordinate (Infinity = none). */
  upper: readonly number[];
  /** Initial simplex step per coordinate. */
  step: readonly number[];
  /** Most objective evaluations. @default 200 · dimensions */
  maxEvaluations?: number;
  /** Stop when the simplex's function values span less than `tolerance · (|best| + tolerance)`. @default 1e-7 */
  tolerance?: number;
}

/** Best point found and its value. */
export interface NelderMeadResult {
  x: Float64Array;
  value: number;
  evaluations: number;
}

/**
 * Derivative-free minimisation (Nelder & Mead 1965; reflection 1, expansion 2, contraction ½,
 * shrink ½) inside a box: every trial point is clamped to `[lower, upper]`, so the objective is
 * only evaluated at admissible coordinates. Bounded by `maxEvaluations`.
 */
export function nelderMead(f: (x: Float64Array) => number, x0: ArrayLike<number>, options: NelderMeadOptions): NelderMeadResult {
  const d = x0.length;
  const { lower, upper } = options;
  const maxEval = options.maxEvaluations ?? 200 * d;
  const tol = options.tolerance ?? 1e-7;
  const clamp = (x: Float64Array): Float64Array => {
    for (let j = 0; j < d; j++) {
      x[j] = Math.min(upper[j], Math.max(lower[j], x[j]));
    }
    return x;
  };
  let evals = 0;
  const value = (x: Float64Array): number => {
    evals++;
    const v = f(x);
    return Number.isNaN(v) ? Number.POSITIVE_INFINITY : v;
  };
  const pts: Float64Array[] = [];
  const vals: number[] = [];
  const start = clamp(Float64Array.from(x0));
  pts.push(start);
  vals.push(value(start));
  for (let j = 0; j < d; j++) {
    const p = Float64Array.from(start);
    p[j] += options.step[j];
    if (p[j] > upper[j]) {
      p[j] = start[j] - options.step[j];
    }
    pts.push(clamp(p));
    vals.push(value(p));
  }
  const order = pts.map((_, i) => i);
  const centroid = new Float64Array(d);
  const along = (t: number, worst: Float64Array): Float64Array => {
    const p = new Float64Array(d);
    for (let j = 0; j < d; j++) {
      p[j] = centroid[j] + t * (worst[j] - centroid[j]);
    }
    return clamp(p);
  };
  while (evals < maxEval) {
    order.sort((a, b) => vals[a] - vals[b]);
    const best = order[0];
    const worst = order[d];
    const spread = vals[worst] - vals[best];
    if (Number.isFinite(spread) && spread <= tol * (Math.abs(vals[best]) + tol)) {
      break;
    }
    centroid.fill(0);
    for (let k = 0; k < d; k++) {
      const p = pts[order[k]];
      for (let j = 0; j < d; j++) {
        centroid[j] += p[j] / d;
      }
    }
    const xr = along(-1, pts[worst]);
    const fr = value(xr);
    if (fr < vals[best]) {
      const xe = along(-2, pts[worst]);
      const fe = value(xe);
      [pts[worst], vals[worst]] = fe < fr ? [xe, fe] : [xr, fr];
    } else if (fr < vals[order[d - 1]]) {
      [pts[worst], vals[worst]] = [xr, fr];
    } else {
      const xc = fr < vals[worst] ? along(-0.5, pts[worst]) : along(0.5, pts[worst]);
      const fc = value(xc);
      if (fc < Math.min(fr, vals[worst])) {
        [pts[worst], vals[worst]] = [xc, fc];
      } else {
        const b = pts[best];
        for (let k = 1; k <= d; k++) {
          const p = pts[order[k]];
          for (let j = 0; j < d; j++) {
            p[j] = b[j] + 0.5 * (p[j] - b[j]);
          }
          vals[order[k]] = value(clamp(p));
        }
      }
    }
  }
  let bi = 0;
  for (let k = 1; k <= d; k++) {
    if (vals[k] < vals[bi]) {
      bi = k;
    }
  }
  return { x: pts[bi], value: vals[bi], evaluations: evals };
}
