import { describe, expect, it } from 'vitest';
import { initialStates, seasonalFigure } from './ets-init.js';

describe('initialStates', () => {
  it('recovers the seasonal pattern, level and slope of an exact series', () => {
    const pattern = [3, -1, -2, 0];
    const y = Float64Array.from({ length: 24 }, (_, t) => 10 + 0.5 * (t + 1) + pattern[t % 4]);
    const s = initialStates(y, { error: 'A', trend: 'A', season: 'A' }, 4);
    Array.from(s.season).forEach((v, j) => expect(v).toBeCloseTo(pattern[j], 9));
    expect(s.level).toBeCloseTo(10, 9);
    expect(s.trend).toBeCloseTo(0.5, 9);
  });

  it('normalises a multiplicative figure to mean 1, and uses the mean level without trend', () => {
    const y = Float64Array.from({ length: 24 }, (_, t) => 100 * [1.2, 0.8, 1.1, 0.9][t % 4]);
    const fig = seasonalFigure(y, 4, true, 12);
    expect(fig.reduce((a, v) => a + v, 0) / 4).toBeCloseTo(1, 12);
    Array.from(fig).forEach((v, j) => expect(v).toBeCloseTo([1.2, 0.8, 1.1, 0.9][j], 9));
    expect(initialStates(y, { error: 'M', trend: 'N', season: 'M' }, 4).level).toBeCloseTo(100, 9);
  });
});
