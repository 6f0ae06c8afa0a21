import { describe, expect, it } from 'vitest';
import { nelderMead } from './nelder-mead.js';
import { normalGenerator } from './random.js';

describe('nelderMead', () => {
  it('finds the minimum of Rosenbrock, and stays inside its box', () => {
    const rosen = (x: Float64Array): number => 100 * (x[1] - x[0] ** 2) ** 2 + (1 - x[0]) ** 2;
    const free = nelderMead(rosen, [-1.2, 1], { lower: [-5, -5], upper: [5, 5], step: [0.5, 0.5], maxEvaluations: 2000, tolerance: 1e-12 });
    expect(free.x[0]).toBeCloseTo(1, 2);
    expect(free.x[1]).toBeCloseTo(1, 2);
    const seen: number[] = [];
    const boxed = nelderMead((x) => (seen.push(x[0]), rosen(x)), [0, 0], { lower: [-1, -1], upper: [0.5, 0.5], step: [0.2, 0.2], maxEvaluations: 500 });
    expect(boxed.x[0]).toBeCloseTo(0.5, 3);
    expect(Math.max(...seen)).toBeLessThanOrEqual(0.5);
    expect(boxed.evaluations).toBeLessThanOrEqual(500);
  });

  it('treats NaN as +Infinity', () => {
    const r = nelderMead((x) => (x[0] < 0 ? Number.NaN : (x[0] - 2) ** 2), [1], { lower: [-10], upper: [10], step: [1] });
    expect(r.x[0]).toBeCloseTo(2, 3);
  });
});

describe('normalGenerator', () => {
  it('is repeatable per seed and standard normal', () => {
    const a = normalGenerator(1);
    const b = normalGenerator(1);
    const xs = Array.from({ length: 20000 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs.slice(0, 5));
    const mean = xs.reduce((s, v) => s + v, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((s, v) => s + (v - mean) ** 2, 0) / xs.length);
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(Math.abs(sd - 1)).toBeLessThan(0.03);
    expect(xs.filter((v) => v < -1.2816).length / xs.length).toBeCloseTo(0.1, 1);
  });
});
