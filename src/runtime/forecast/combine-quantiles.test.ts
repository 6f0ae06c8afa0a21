import { describe, expect, it } from 'vitest';
import { combineQuantiles, medianOf, mixtureOf } from './combine-quantiles.js';

const LEVELS = [0.1, 0.25, 0.5, 0.75, 0.9];
/** Quantiles of a uniform distribution on [a, b] at LEVELS, one step. */
const uniform = (a: number, b: number) => Float32Array.from(LEVELS, (p) => a + p * (b - a));

describe('combineQuantiles', () => {
  it('mixture: the same distribution twice is itself; two far apart put the median between and each tail in one of them', () => {
    const u = uniform(0, 10);
    Array.from(mixtureOf([u, u], LEVELS, 1)).forEach((q, l) => expect(q).toBeCloseTo(u[l], 4));
    const m = mixtureOf([uniform(0, 10), uniform(100, 110)], LEVELS, 1);
    expect(m[0]).toBeCloseTo(2, 3); // 0.1 of the mixture = 0.2 of the lower one
    expect(m[4]).toBeCloseTo(108, 3);
    expect(m[2]).toBeGreaterThanOrEqual(10);
    expect(m[2]).toBeLessThanOrEqual(100);
    // Weights move the mass: 9:1 for the lower one puts the 0.5 level at its 0.5/0.9 quantile.
    expect(mixtureOf([uniform(0, 10), uniform(100, 110)], LEVELS, 1, [9, 1])[2]).toBeCloseTo(5.556, 2);
  });

  it('mean is Vincentisation (weighted when asked); median is per level and keeps paths ordered', () => {
    const xs = [uniform(0, 10), uniform(2, 4), uniform(100, 200)];
    expect(Array.from(combineQuantiles(xs, LEVELS, 1, 'mean'))).toEqual(Array.from(LEVELS, (_, l) => expect.closeTo((xs[0][l] + xs[1][l] + xs[2][l]) / 3, 4)));
    expect(combineQuantiles(xs.slice(0, 2), LEVELS, 1, 'mean', [1, 0])[3]).toBeCloseTo(7.5, 5);
    const med = medianOf(xs);
    expect(Array.from(med)).toEqual([2.2, 2.5, 5, 7.5, 9].map((v) => expect.closeTo(v, 5)));
    expect(Array.from(med).every((v, l) => l === 0 || v >= med[l - 1])).toBe(true);
  });
});
