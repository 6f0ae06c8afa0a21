import { describe, expect, it } from 'vitest';
import { normals } from '../../../../test/fixtures/seeded.js';
import { loadDataset } from '../../../eval/datasets.js';
import { difference } from './arima-spec.js';
import { selectArima } from './select-arima.js';
import { kpssDiffs, kpssStatistic } from './unit-root.js';

const cumsum = (x: Float64Array): Float64Array => {
  let s = 0;
  return x.map((v) => (s += v));
};

const classic = new Map((await loadDataset('classic_series')).map((s) => [s.name, Float64Array.from(s.values, Number)]));
const dax = Float64Array.from((await loadDataset('eu_stock_markets')).find((s) => s.name === 'DAX')?.values ?? [], Number);

describe('KPSS differencing (R forecast::ndiffs)', () => {
  it('uses ndiffs\' bandwidth trunc(3√n/13) by default', () => {
    const x = cumsum(normals(1000, 3));
    expect(kpssStatistic(x)).toBe(kpssStatistic(x, 7));
    expect(kpssStatistic(x)).not.toBe(kpssStatistic(x, 8));
  });

  it('a random walk needs one difference', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      expect(kpssDiffs(cumsum(normals(500, seed))), `seed ${seed}`).toBe(1);
    }
  });

  it('a trend-stationary series: one difference, never two (its difference is over-differenced noise)', () => {
    const e = normals(200, 9);
    const y = e.map((v, t) => 10 + 0.5 * t + v);
    expect(kpssStatistic(y)).toBeGreaterThan(0.463);
    expect(kpssStatistic(difference(y, 1, 0, 1))).toBeLessThan(0.463);
    expect(kpssDiffs(y)).toBe(1);
  });

  it('an integrated random walk (I(2)) and R\'s d = 2 series (austres) keep two differences', () => {
    expect(kpssDiffs(cumsum(cumsum(normals(300, 11))))).toBe(2);
    expect(kpssDiffs(classic.get('austres') ?? [])).toBe(2);
  });

  it('daily DAX closes: KPSS rejects the returns (a drifting mean), but a second difference is not taken', () => {
    // The window the accuracy bench's first fold fits: 1000 trading days ending 60 days before the end.
    const window = dax.subarray(dax.length - 1060, dax.length - 60);
    const returns = difference(window, 1, 0, 1);
    expect(kpssStatistic(returns)).toBeGreaterThan(0.463); // R's ndiffs would difference again here
    expect(kpssDiffs(window)).toBe(1);
    expect(selectArima(window, { season: 7 }).fit.order.d).toBe(1);
  });
});
