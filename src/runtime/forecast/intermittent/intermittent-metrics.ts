/** Accuracy of a flat or stepwise forecast of intermittent demand against what happened. */
export interface IntermittentScore {
  /** Mean squared error divided by the squared mean of the history (comparable across items). */
  scaledMse: number;
  /** Mean error (forecast − actual) divided by the mean of the history: > 0 over-forecasts. */
  scaledBias: number;
}

/**
 * Scaled MSE and scaled bias (Kourentzes 2014's scale-free measures for intermittent demand): the
 * squared and signed errors over the horizon divided by the history's mean (squared for the MSE), so
 * items of any volume average together. NaN when the history's mean is 0.
 */
export function intermittentScore(history: ArrayLike<number>, actual: ArrayLike<number>, forecast: ArrayLike<number>): IntermittentScore {
  let mean = 0;
  for (let t = 0; t < history.length; t++) {
    mean += history[t] / history.length;
  }
  let se = 0;
  let e = 0;
  for (let h = 0; h < actual.length; h++) {
    se += (forecast[h] - actual[h]) ** 2;
    e += forecast[h] - actual[h];
  }
  const n = actual.length;
  return { scaledMse: se / n / (mean * mean), scaledBias: e / n / mean };
}

/**
 * A reproducible zero-inflated demand set: `count` items of length `length`, demand in a period with
 * probability 0.1–0.5 (per item), sizes 1 + Poisson-like (geometric, mean 2–8), from a fixed LCG
 * `seed`. Some items stop demanding in their last quarter (obsolescence, what TSB is for).
 */
export function zeroInflatedDemand(count = 100, length = 72, seed = 2026): Float64Array[] {
  let s = seed;
  const u = (): number => {
    s = (s * 48271) % 2147483647;
    return s / 2147483647;
  };
  const out: Float64Array[] = [];
  for (let i = 0; i < count; i++) {
    const p = 0.1 + 0.4 * u();
    const meanSize = 2 + 6 * u();
    const stopsAt = u() < 0.2 ? Math.floor(length * 0.75) : length;
    out.push(
      Float64Array.from({ length }, (_, t) => {
        if (t >= stopsAt || u() >= p) {
          return 0;
        }
        return 1 + Math.floor(Math.log(1 - u()) / Math.log(1 - 1 / meanSize));
      }),
    );
  }
  return out;
}
