import { describe, expect, it } from 'vitest';
import { fillMissing } from '../fill-missing.js';
import { centredMovingAverage } from './moving-average.js';

describe('centredMovingAverage', () => {
  it('removes a whole period exactly and extends a line at both ends', () => {
    const y = Float64Array.from({ length: 30 }, (_, t) => 2 * t + [3, -1, -2, 0][t % 4]);
    Array.from(centredMovingAverage(y, 4)).forEach((v, t) => expect(v).toBeCloseTo(2 * t, 9));
    const odd = Float64Array.from({ length: 21 }, (_, t) => 5 - t + [1, 0, -1][t % 3]);
    Array.from(centredMovingAverage(odd, 3)).forEach((v, t) => expect(v).toBeCloseTo(5 - t, 9));
  });
});

describe('fillMissing', () => {
  it('drops leading gaps, interpolates inner ones and carries the last value forward', () => {
    const r = fillMissing(Float32Array.of(Number.NaN, 1, Number.NaN, Number.NaN, 4, Number.NaN));
    expect(r.first).toBe(1);
    expect(Array.from(r.values)).toEqual([1, 2, 3, 4, 4]);
    expect(fillMissing(Float32Array.of(Number.NaN)).first).toBe(-1);
  });
});
