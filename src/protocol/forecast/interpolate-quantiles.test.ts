import { describe, expect, it } from 'vitest';
import { interpolateQuantiles, medianPath } from './interpolate-quantiles.js';

describe('interpolateQuantiles', () => {
  const levels = [0.1, 0.5, 0.9];
  // level-major [3 × 2]: step 0 = (0, 10, 30), step 1 = (4, 6, 8)
  const values = Float32Array.from([0, 4, 10, 6, 30, 8]);

  it('returns model levels exactly, interpolates linearly between them and clamps beyond', () => {
    const out = interpolateQuantiles(levels, values, 2, [0.5, 0.3, 0.7, 0.05, 0.95, 0.1]).map((p) => Array.from(p));
    const want = [[10, 6], [5, 5], [20, 7], [0, 4], [30, 8], [0, 4]];
    out.forEach((p, k) => p.forEach((v, h) => expect(v).toBeCloseTo(want[k][h], 12)));
    expect([out[0], out[3], out[4], out[5]]).toEqual([want[0], want[3], want[4], want[5]]); // exact at and beyond model levels
  });

  it('sorts crossing model quantiles so results are monotone in the level', () => {
    const crossed = Float32Array.from([9, 1, 5]); // horizon 1: 0.1 → 9, 0.5 → 1, 0.9 → 5
    const qs = [0.1, 0.2, 0.5, 0.8, 0.9];
    const out = interpolateQuantiles(levels, crossed, 1, qs).map((p) => p[0]);
    out.forEach((v, k) => expect(v).toBeCloseTo([1, 2, 5, 8, 9][k], 12));
  });

  it('gives the median path, interpolated when 0.5 is not a model level', () => {
    expect(Array.from(medianPath(levels, values, 2))).toEqual([10, 6]);
    expect(Array.from(medianPath([0.4, 0.6], Float32Array.from([1, 3]), 1))).toEqual([2]);
  });

  it('takes the raw 0.5 output when quantiles cross (the pipeline\'s mean), while the map stays sorted', () => {
    const crossed = Float32Array.from([9, 0, 1, 2, 5, 4]); // level-major, horizon 2: step 0 crosses (9, 1, 5), step 1 (0, 2, 4) does not
    expect(Array.from(medianPath(levels, crossed, 2))).toEqual([1, 2]);
    expect(Array.from(interpolateQuantiles(levels, crossed, 2, [0.5])[0])).toEqual([5, 2]);
  });
});
