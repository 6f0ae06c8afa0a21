/**
 * The observed part of a series, gap-free: leading NaNs dropped, inner ones linearly
 * interpolated, trailing ones carried forward. `first` = index of the first observed value (-1
 * and an empty array when there is none), so position t of the result is position first + t.
 */
export function fillMissing(y: ArrayLike<number>): { values: Float64Array; first: number } {
  let first = -1;
  for (let t = 0; t < y.length; t++) {
    if (!Number.isNaN(y[t])) {
      first = t;
      break;
    }
  }
  if (first < 0) {
    return { values: new Float64Array(0), first };
  }
  const x = new Float64Array(y.length - first);
  for (let t = 0; t < x.length; t++) {
    x[t] = y[first + t];
  }
  let prev = 0;
  for (let t = 1; t < x.length; t++) {
    if (Number.isNaN(x[t])) {
      continue;
    }
    for (let k = prev + 1; k < t; k++) {
      x[k] = x[prev] + ((x[t] - x[prev]) * (k - prev)) / (t - prev);
    }
    prev = t;
  }
  for (let k = prev + 1; k < x.length; k++) {
    x[k] = x[prev];
  }
  return { values: x, first };
}
