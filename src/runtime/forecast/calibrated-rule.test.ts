import { describe, expect, it } from 'vitest';
import type { BaselineRule } from './baseline-model.js';
import { calibratedRule } from './calibrated-rule.js';
import { normalQuantile } from './seasonality.js';

/** Always forecasts 0 with sd `sd` (and, optionally, quantiles point ± 1). */
const constant = (sd: number, quantiles = false): BaselineRule => (_y, horizon) => ({
  point: new Float64Array(horizon),
  sd: new Float64Array(horizon).fill(sd),
  ...(quantiles ? { quantiles: Float64Array.from({ length: 2 * horizon }, (_, i) => (i < horizon ? -1 : 1)) } : {}),
});

describe('calibratedRule', () => {
  // Origins 8, 6, 4 with horizon 2: the hold-out errors are y[4…9] = 1…6 (|z| = 1…6 at sd 1).
  const y = Float32Array.of(0, 0, 0, 0, 1, 2, 3, 4, 5, 6);

  it('scales the spread by the median over origins of the factor that puts 80% of their errors inside', () => {
    // Origins 8, 6, 4: |z| = {5, 6}, {3, 4}, {1, 2}; 0.8-quantiles 5.8, 3.8, 1.8; median 3.8.
    const f = calibratedRule(constant(1), { minScores: 4, maxFactor: Infinity })(y, 2, 1);
    expect(f.sd[0]).toBeCloseTo(3.8 / normalQuantile(0.9), 12);
    const g = calibratedRule(constant(1, true), { minScores: 4, maxFactor: Infinity })(y, 2, 1);
    expect(Array.from(g.quantiles ?? [])).toEqual([-1, -1, 1, 1].map((v) => (v * 3.8) / normalQuantile(0.9)));
  });

  it('widens at most maxFactor (2) times', () => {
    expect(calibratedRule(constant(1), { minScores: 4 })(y, 2, 1).sd[0]).toBe(2);
  });

  it('never narrows, and leaves the spread alone with too few hold-out errors', () => {
    expect(calibratedRule(constant(100), { minScores: 4 })(y, 2, 1).sd[0]).toBe(100);
    expect(calibratedRule(constant(1))(y, 2, 1).sd[0]).toBe(1);
  });
});
