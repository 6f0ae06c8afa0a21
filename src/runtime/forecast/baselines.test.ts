import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../eval/datasets.js';
import { evaluate } from '../../eval/evaluate.js';
import { BASELINE_LEVELS } from './baseline-model.js';
import { seasonalNaive } from './seasonal-naive.js';
import { normalQuantile, seasonFor } from './seasonality.js';
import { theta } from './theta.js';

const f32 = (xs: number[]): Float32Array => Float32Array.from(xs);
const median = (v: Float32Array, horizon: number): number[] => {
  const q = BASELINE_LEVELS.indexOf(0.5);
  return Array.from(v.subarray(q * horizon, (q + 1) * horizon));
};

describe('seasonFor / normalQuantile', () => {
  it('maps frequencies to seasons, with override and short-series fallback', () => {
    expect(['hour', 'day', 'week', 'month', 'quarter', 'year', 'minute', 'second'].map((f) => seasonFor(f as never, 1000))).toEqual([24, 7, 52, 12, 4, 1, 1, 60]);
    expect(seasonFor('minute', 2000)).toBe(1440);
    expect(seasonFor('month', 11)).toBe(1);
    expect(seasonFor('month', 23, undefined, 2)).toBe(1);
    expect(seasonFor('day', 100, 5)).toBe(5);
  });
  it('inverts the normal CDF', () => {
    expect(normalQuantile(0.5)).toBeCloseTo(0, 9);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.01)).toBeCloseTo(-2.326348, 5);
  });
});

describe('seasonalNaive', () => {
  it('is exact on a purely periodic series, with zero spread', async () => {
    const y = f32(Array.from({ length: 28 }, (_, t) => [5, 1, 3, 9, 2, 7, 4][t % 7]));
    const f = await seasonalNaive().predict([y], 10, { frequencies: ['day'] });
    expect(Array.from(f.mean?.[0] ?? [])).toEqual([5, 1, 3, 9, 2, 7, 4, 5, 1, 3]);
    expect(Array.from(f.values[0])).toEqual(BASELINE_LEVELS.flatMap(() => [5, 1, 3, 9, 2, 7, 4, 5, 1, 3]));
  });

  it('takes a missing seasonal value from one season earlier, else the last observation', async () => {
    const y = f32([1, 2, 3, 10, NaN, 30, NaN]);
    const f = await seasonalNaive({ season: 3 }).predict([y], 3);
    expect(median(f.values[0], 3)).toEqual([2, 30, 10]); // positions 7, 8, 9 ≡ 1, 2, 0 (mod 3)
    const g = await seasonalNaive({ season: 3 }).predict([f32([NaN, NaN, 4, NaN])], 2);
    expect(median(g.values[0], 2)).toEqual([4, 4]);
  });

  it('is plain naive for yearly data, its spread the RMS of its own in-sample h-step errors', async () => {
    const f = await seasonalNaive().predict([f32([1, 3, 2, 4])], 4, { frequencies: ['year'] });
    expect(Array.from(f.mean?.[0] ?? [])).toEqual([4, 4, 4, 4]);
    const q90 = BASELINE_LEVELS.indexOf(0.9);
    const upper = Array.from(f.values[0].subarray(q90 * 4, q90 * 4 + 4));
    // All values > 0: relative lag-h errors y[t]/y[t-h] - 1, scaled by the forecast 4.
    const rel = [Math.sqrt((2 ** 2 + (1 / 3) ** 2 + 1 ** 2) / 3), Math.sqrt((1 ** 2 + (1 / 3) ** 2) / 2), 3];
    rel.forEach((r, h) => expect(upper[h]).toBeCloseTo(4 + normalQuantile(0.9) * r * 4, 4));
    // No lag-4 pair in 4 values: random walk from the RMS one-step difference.
    expect(upper[3]).toBeCloseTo(4 + normalQuantile(0.9) * Math.sqrt((4 + 1 + 4) / 3) * 2, 4);
  });

  it('uses absolute errors when a value is ≤ 0', async () => {
    const f = await seasonalNaive().predict([f32([0, 2, 1, 3])], 2, { frequencies: ['year'] });
    const q90 = BASELINE_LEVELS.indexOf(0.9);
    const upper = Array.from(f.values[0].subarray(q90 * 2, q90 * 2 + 2));
    expect(upper[0]).toBeCloseTo(3 + normalQuantile(0.9) * Math.sqrt((4 + 1 + 4) / 3), 4);
    expect(upper[1]).toBeCloseTo(3 + normalQuantile(0.9) * Math.sqrt((1 + 1) / 2), 4);
  });
});

describe('theta', () => {
  it('follows a linear trend and keeps quantiles ordered, with missing values', async () => {
    const y = f32(Array.from({ length: 40 }, (_, t) => (t === 7 || t === 39 ? NaN : 10 + 2 * t)));
    const f = await theta().predict([y], 5, { frequencies: ['year'] });
    const mean = Array.from(f.mean?.[0] ?? []);
    mean.forEach((m, h) => expect(Math.abs(m - (90 + 2 * h))).toBeLessThan(0.1 * (90 + 2 * h)));
    mean.slice(1).forEach((m, h) => expect(m).toBeGreaterThan(mean[h]));
    for (let h = 0; h < 5; h++) {
      const col = BASELINE_LEVELS.map((_, q) => f.values[0][q * 5 + h]);
      expect([...col].sort((a, b) => a - b)).toEqual(col);
    }
  });

  it('beats seasonal naive on AirPassengers (MASE, 3 folds of 12 months)', async () => {
    const air = (await loadDataset('classic_series')).filter((s) => s.name === 'AirPassengers');
    const [t, n] = [await evaluate(theta(), air, { horizon: 12 }), await evaluate(seasonalNaive(), air, { horizon: 12 })];
    expect(t.mase).toBeLessThan(n.mase);
    expect(t.mase).toBeLessThan(1.2);
  });
});
