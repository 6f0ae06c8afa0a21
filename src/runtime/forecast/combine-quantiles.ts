/**
 * Ways to combine several models' quantile forecasts of one series (each level-major
 * `[levels × horizon]`, the same levels): per level the mean (Vincentisation) or the median of the
 * members' quantiles, or the quantiles of their equal-weight mixture (pooling the members' samples).
 */
export type QuantileCombination = 'mean' | 'median' | 'mixture';

/** Element-wise mean of equally long arrays, weighted by `weights` (normalised) when given. */
export function meanOf(xs: readonly Float32Array[], weights?: readonly number[]): Float32Array {
  const out = new Float32Array(xs[0].length);
  const total = weights?.reduce((a, b) => a + b, 0) ?? xs.length;
  xs.forEach((x, k) => {
    const w = (weights?.[k] ?? 1) / total;
    for (let j = 0; j < out.length; j++) {
      out[j] += w * x[j];
    }
  });
  return out;
}

/** Element-wise median of equally long arrays (mean of the middle two for an even count); monotone paths stay monotone. */
export function medianOf(xs: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(xs[0].length);
  const col = new Float64Array(xs.length);
  const mid = xs.length >> 1;
  for (let j = 0; j < out.length; j++) {
    xs.forEach((x, k) => (col[k] = x[j]));
    col.sort();
    out[j] = xs.length % 2 === 1 ? col[mid] : (col[mid - 1] + col[mid]) / 2;
  }
  return out;
}

/** CDF at x of a distribution given by quantiles `q` at `levels`: linear between them, the end segments' slopes carried into the tails. */
function cdfAt(q: Float64Array, levels: readonly number[], x: number): number {
  const L = q.length;
  if (x < q[0]) {
    const slope = q[1] > q[0] ? (levels[1] - levels[0]) / (q[1] - q[0]) : Number.POSITIVE_INFINITY;
    return Math.max(0, levels[0] - (q[0] - x) * slope);
  }
  if (x >= q[L - 1]) {
    const slope = q[L - 1] > q[L - 2] ? (levels[L - 1] - levels[L - 2]) / (q[L - 1] - q[L - 2]) : Number.POSITIVE_INFINITY;
    return x === q[L - 1] && slope === Number.POSITIVE_INFINITY ? levels[L - 1] : Math.min(1, levels[L - 1] + (x - q[L - 1]) * slope);
  }
  let l = 0;
  while (q[l + 1] <= x) {
    l++;
  }
  return levels[l] + ((x - q[l]) / (q[l + 1] - q[l])) * (levels[l + 1] - levels[l]);
}

/**
 * Quantiles at `levels` of the equal-weight mixture of the members' distributions (what pooling
 * their samples gives): per step, the x where the members' mean CDF reaches each level, by
 * bisection. Wider than the mean of quantiles when the members disagree on the centre.
 */
export function mixtureOf(xs: readonly Float32Array[], levels: readonly number[], horizon: number, weights?: readonly number[]): Float32Array {
  const L = levels.length;
  const out = new Float32Array(L * horizon);
  const qs = xs.map(() => new Float64Array(L));
  for (let h = 0; h < horizon; h++) {
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    xs.forEach((x, k) => {
      for (let l = 0; l < L; l++) {
        qs[k][l] = l > 0 ? Math.max(qs[k][l - 1], x[l * horizon + h]) : x[h];
      }
      lo = Math.min(lo, qs[k][0]);
      hi = Math.max(hi, qs[k][L - 1]);
    });
    const total = weights?.reduce((a, b) => a + b, 0) ?? qs.length;
    const mixed = (v: number) => qs.reduce((a, q, k) => a + (weights?.[k] ?? 1) * cdfAt(q, levels, v), 0) / total;
    for (let l = 0; l < L; l++) {
      let a = lo;
      let b = hi;
      for (let it = 0; it < 60 && b - a > 1e-9 * Math.max(1, Math.abs(a) + Math.abs(b)); it++) {
        const m = (a + b) / 2;
        if (mixed(m) < levels[l]) {
          a = m;
        } else {
          b = m;
        }
      }
      out[l * horizon + h] = (a + b) / 2;
    }
  }
  return out;
}

/** The members' forecasts of one series combined by `how` (see {@link QuantileCombination}); `weights` apply to `mean` and `mixture`. */
export function combineQuantiles(xs: readonly Float32Array[], levels: readonly number[], horizon: number, how: QuantileCombination, weights?: readonly number[]): Float32Array {
  return how === 'mean' ? meanOf(xs, weights) : how === 'median' ? medianOf(xs) : mixtureOf(xs, levels, horizon, weights);
}
