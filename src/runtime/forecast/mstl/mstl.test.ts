import { describe, expect, it } from 'vitest';
import { isInferkitError } from '../../../errors.js';
import { BASELINE_LEVELS } from '../baseline-model.js';
import { normalGenerator } from '../ets/random.js';
import { seasonalNaive } from '../seasonal-naive.js';
import { mstl } from './mstl.js';
import { mstlDecompose } from './mstl-decompose.js';

const day = (t: number): number => 10 * Math.sin((2 * Math.PI * t) / 24);
const week = (t: number): number => 5 * Math.cos((2 * Math.PI * t) / 168);

/** Hourly: trend + daily (24) + weekly (168) sines + N(0, 0.5²) noise; 8 weeks. */
function twoSeasons(n = 8 * 168, seed = 4): Float64Array {
  const draw = normalGenerator(seed);
  return Float64Array.from({ length: n }, (_, t) => 100 + 0.01 * t + day(t) + week(t) + 0.5 * draw());
}

const rms = (a: ArrayLike<number>, b: (t: number) => number, from: number, to: number): number => {
  let s = 0;
  for (let t = from; t < to; t++) {
    s += (a[t] - b(t)) ** 2;
  }
  return Math.sqrt(s / (to - from));
};

describe('mstlDecompose', () => {
  it('recovers two known periods of a sum of sines', () => {
    const y = twoSeasons();
    const d = mstlDecompose(y, [168, 24]);
    expect(d.periods).toEqual([24, 168]);
    // Within 10% of each amplitude (RMS), away from the first and last week.
    expect(rms(d.seasonal[0], day, 168, y.length - 168)).toBeLessThan(1);
    expect(rms(d.seasonal[1], week, 168, y.length - 168)).toBeLessThan(0.5);
    expect(rms(d.trend, (t) => 100 + 0.01 * t, 168, y.length - 168)).toBeLessThan(0.5);
    y.forEach((v, t) => expect(d.trend[t] + d.seasonal[0][t] + d.seasonal[1][t] + d.remainder[t]).toBeCloseTo(v, 9));
  });

  it('names the field on bad input', () => {
    const codes = [
      () => mstlDecompose(Float64Array.of(1, 2, Number.NaN, 4, 5, 6), [2]),
      () => mstlDecompose(twoSeasons(100), [24, 168]),
      () => mstlDecompose(twoSeasons(100), [1.5]),
    ].map((f) => {
      try {
        f();
        return 'no error';
      } catch (e) {
        return isInferkitError(e) ? `${e.code} ${e.param}` : String(e);
      }
    });
    expect(codes).toEqual(['invalid_request series', 'invalid_request periods[1]', 'invalid_request periods[0]']);
  });
});

describe('mstl', () => {
  it('beats seasonal naive (168) on the next day of a two-season series, intervals ordered', async () => {
    const y = Float32Array.from(twoSeasons(8 * 168 + 24, 9));
    const [train, test] = [y.subarray(0, 8 * 168), y.subarray(8 * 168)];
    const m = await mstl({ periods: [24, 168] }).predict([train], 24);
    const n = await seasonalNaive({ season: 168 }).predict([train], 24);
    const mae = (f: Float32Array | undefined): number => test.reduce((a, v, h) => a + Math.abs(v - (f?.[h] ?? Number.NaN)), 0) / 24;
    expect(mae(m.mean?.[0])).toBeLessThan(0.8 * mae(n.mean?.[0]));
    for (let h = 0; h < 24; h++) {
      const col = BASELINE_LEVELS.map((_, q) => m.values[0][q * 24 + h]);
      expect([...col].sort((a, b) => a - b)).toEqual(col);
    }
  });

  it('takes both seasons from an hourly frequency when no periods are given', async () => {
    const y = Float32Array.from(twoSeasons(8 * 168 + 24, 9));
    const [train, test] = [y.subarray(0, 8 * 168), y.subarray(8 * 168)];
    const mae = (f: Float32Array | undefined): number => test.reduce((a, v, h) => a + Math.abs(v - (f?.[h] ?? Number.NaN)), 0) / 24;
    const byFrequency = await mstl().predict([train], 24, { frequencies: ['hour'] });
    const explicit = await mstl({ periods: [24, 168] }).predict([train], 24);
    const dailyOnly = await mstl({ season: 24 }).predict([train], 24, { frequencies: ['hour'] });
    expect(Array.from(byFrequency.mean?.[0] ?? [])).toEqual(Array.from(explicit.mean?.[0] ?? []));
    expect(mae(byFrequency.mean?.[0])).toBeLessThan(mae(dailyOnly.mean?.[0]));
  });

  it('drops periods a short series cannot hold and still forecasts; non-positive data stays additive', async () => {
    const y = Float32Array.from({ length: 60 }, (_, t) => day(t) + 0.1 * (t % 3));
    const f = await mstl({ periods: [24, 168] }).predict([y, Float32Array.of(1, 2)], 24);
    const mean = Array.from(f.mean?.[0] ?? []);
    mean.forEach((v, h) => expect(Math.abs(v - day(60 + h))).toBeLessThan(2));
    expect(Array.from(f.mean?.[1] ?? [])).toEqual(new Array(24).fill(2));
  });
});

describe('mstl on very short positive series', () => {
  it('answers the last value on the original scale', async () => {
    const f = await mstl({ periods: [2] }).predict([Float32Array.of(4, 8, 4, 8)], 2);
    expect(Array.from(f.mean?.[0] ?? [])).toEqual([8, 8]);
  });
});
