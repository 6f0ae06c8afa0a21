/**
 * Reads quantile level `q` from a level-major forecast `values` [levels × horizon]. Per step the
 * model's values are sorted first (removing quantile crossing), then interpolated linearly in the
 * level between the two nearest model levels — so the result is monotone in `q`. Levels outside
 * the model's outer levels are clamped: below the lowest level you get the lowest level's value,
 * above the highest the highest's (no extrapolation). A model level is returned exactly.
 */
export function interpolateQuantiles(levels: readonly number[], values: Float32Array, horizon: number, targets: readonly number[]): Float64Array[] {
  const Q = levels.length;
  const out = targets.map(() => new Float64Array(horizon));
  const column = new Float64Array(Q);
  const plan = targets.map((q) => bracket(levels, q));
  for (let h = 0; h < horizon; h++) {
    for (let i = 0; i < Q; i++) {
      column[i] = values[i * horizon + h];
    }
    column.sort();
    plan.forEach(({ lo, hi, w }, k) => {
      out[k][h] = w === 0 ? column[lo] : column[lo] + w * (column[hi] - column[lo]);
    });
  }
  return out;
}

/**
 * The point path reported as `mean_forecast` when a model has no mean, and appended by the median
 * rollout: the model's own 0.5 output as it came (not re-sorted when its quantiles cross — what the
 * Chronos-Bolt pipeline reports as its mean), or, for a model without a 0.5 level, level 0.5
 * interpolated from the sorted values. As float32.
 */
export function medianPath(levels: readonly number[], values: Float32Array, horizon: number): Float32Array {
  const k = levels.indexOf(0.5);
  if (k >= 0) {
    return values.slice(k * horizon, (k + 1) * horizon);
  }
  return Float32Array.from(interpolateQuantiles(levels, values, horizon, [0.5])[0]);
}

/** Lower/upper level indices around `q` and the weight of the upper one (0 = exactly `lo`). */
function bracket(levels: readonly number[], q: number): { lo: number; hi: number; w: number } {
  const last = levels.length - 1;
  if (q <= levels[0]) {
    return { lo: 0, hi: 0, w: 0 };
  }
  if (q >= levels[last]) {
    return { lo: last, hi: last, w: 0 };
  }
  let hi = 1;
  while (levels[hi] < q) {
    hi++;
  }
  if (levels[hi] === q) {
    return { lo: hi, hi, w: 0 };
  }
  return { lo: hi - 1, hi, w: (q - levels[hi - 1]) / (levels[hi] - levels[hi - 1]) };
}
