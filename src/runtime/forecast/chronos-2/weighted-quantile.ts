/**
 * Probability mass of each quantile level by the trapezoid rule — (q₍ᵢ₊₁₎ − q₍ᵢ₋₁₎) / 2 with q₀ = 0 and
 * qₙ₊₁ = 1, normalised — in float32 steps, as the Chronos-2 pipeline weighs its long-horizon samples.
 */
export function probabilityMass(levels: readonly number[]): Float32Array {
  const b = [0, ...levels.map(Math.fround), 1];
  const mass = Float32Array.from(levels, (_, i) => Math.fround(Math.fround(b[i + 2] - b[i]) / 2));
  const total = Math.fround(mass.reduce((a, v) => a + v, 0));
  return mass.map((v) => Math.fround(v / total));
}

/**
 * The Chronos-2 pipeline's `weighted_quantile` for one step: `samples` sorted, their `weights` (normalised,
 * summed in order into an empirical CDF clamped to [0, 1], padded with 0 → the smallest sample and 1 → the
 * largest), read at `levels` by linear interpolation between the CDF points around each level.
 */
export function weightedQuantiles(samples: Float32Array, weights: Float32Array, levels: readonly number[]): Float32Array {
  const order = Array.from(samples.keys()).sort((a, b) => samples[a] - samples[b]);
  const cdf: number[] = [];
  const values: number[] = [];
  let sum = 0;
  for (const k of order) {
    sum += weights[k];
    cdf.push(Math.min(1, Math.max(0, Math.fround(sum))));
    values.push(samples[k]);
  }
  if (cdf[0] > 0) {
    cdf.unshift(0);
    values.unshift(values[0]);
  }
  if (cdf[cdf.length - 1] < 1) {
    cdf.push(1);
    values.push(values[values.length - 1]);
  }
  return Float32Array.from(levels, (level) => {
    const q = Math.fround(level);
    let upper = cdf.findIndex((c) => c > q);
    upper = upper < 0 ? cdf.length - 1 : upper;
    const lower = Math.max(0, upper - 1);
    const span = Math.fround(cdf[upper] - cdf[lower]);
    const w = span === 0 ? 0 : Math.fround(Math.fround(q - cdf[lower]) / span);
    return Math.fround(values[lower] + Math.fround(w * Math.fround(values[upper] - values[lower])));
  });
}
