/**
 * Centred moving average of order p (2×p for even p, so it spans exactly one period) with the
 * ends filled by extending the first/last computable values along the local slope of the
 * average over one period (the ends of a trend are where a forecast starts, so they are not left flat).
 */
export function centredMovingAverage(x: Float64Array, p: number): Float64Array {
  const n = x.length;
  const out = new Float64Array(n);
  const half = Math.floor(p / 2);
  if (p <= 1 || n < p + 1) {
    out.set(x);
    return out;
  }
  const cum = new Float64Array(n + 1);
  for (let t = 0; t < n; t++) {
    cum[t + 1] = cum[t] + x[t];
  }
  const lo = half;
  const hi = n - 1 - half;
  for (let t = lo; t <= hi; t++) {
    if (p % 2 === 0) {
      const inner = cum[t + half] - cum[t - half + 1];
      out[t] = (inner + 0.5 * (x[t - half] + x[t + half])) / p;
    } else {
      out[t] = (cum[t + half + 1] - cum[t - half]) / p;
    }
  }
  const span = Math.min(p, hi - lo);
  const slopeStart = span > 0 ? (out[lo + span] - out[lo]) / span : 0;
  const slopeEnd = span > 0 ? (out[hi] - out[hi - span]) / span : 0;
  for (let t = 0; t < lo; t++) {
    out[t] = out[lo] - slopeStart * (lo - t);
  }
  for (let t = hi + 1; t < n; t++) {
    out[t] = out[hi] + slopeEnd * (t - hi);
  }
  return out;
}
