import { describe, expect, it } from 'vitest';
import { seasonalNaive } from '../runtime/forecast/seasonal-naive.js';
import { loadDataset } from './datasets.js';
import { evaluate } from './evaluate.js';
import { mase, weightedQuantileLoss } from './metrics.js';

describe('metrics', () => {
  it('computes MASE against the in-sample seasonal difference', () => {
    expect(mase([1, 2, 4, 8], [10, 10], [9, 12], 1)).toBeCloseTo(1.5 / (7 / 3), 12);
    expect(mase([1, NaN, 1], [1], [1], 1)).toBeNaN();
  });
  it('computes the weighted quantile loss', () => {
    // q=0.5: 2·(0.5·1 + 0.5·1)/4 = 0.5 ; q=0.9: 2·(0.9·1 + 0.1·1)/4 = 0.5
    expect(weightedQuantileLoss([1, 3], [[0, 4], [0, 4]], [0.5, 0.9])).toBeCloseTo(0.5, 12);
  });
});

describe('evaluate', () => {
  it('scores seasonal naive 0 on a purely periodic series (MASE scaled by lag-1 differences)', async () => {
    const values = Array.from({ length: 60 }, (_, t) => [3, 5, 9, 4, 6, 1, 2][t % 7]);
    const r = await evaluate(seasonalNaive(), [{ name: 'p', values, frequency: 'day' }], { horizon: 10, folds: 4, step: 3, season: 1 });
    expect(r.series).toEqual([{ name: 'p', mase: 0, wql: 0, folds: 4, coverage: 1 }]);
    expect([r.mase, r.wql]).toEqual([0, 0]);
    const bySeason = await evaluate(seasonalNaive(), [{ name: 'p', values, frequency: 'day' }], { horizon: 10 });
    expect(bySeason.series[0].mase).toBeNaN(); // the lag-7 scale of a periodic series is 0
  });

  it('skips folds without enough history and reports NaN scores for them', async () => {
    const r = await evaluate(seasonalNaive(), [{ name: 'short', values: [1, 2, 3], frequency: 'day' }], { horizon: 3 });
    expect(r.series[0]).toMatchObject({ folds: 0 });
    expect(r.mase).toBeNaN();
  });
});

describe('loadDataset', () => {
  it('reads the shipped series with inferred frequencies', async () => {
    const classic = await loadDataset('classic_series');
    expect(classic.map((s) => [s.name, s.frequency, s.values.length]).slice(0, 4)).toEqual([
      ['AirPassengers', 'month', 144],
      ['co2', 'month', 468],
      ['nottem', 'month', 240],
      ['UKgas', 'quarter', 108],
    ]);
    expect(classic.find((s) => s.name === 'Nile')).toMatchObject({ frequency: 'year', start: '1871-01-01T00:00:00Z' });
    const eu = await loadDataset('eu_stock_markets');
    expect(eu.map((s) => s.name)).toEqual(['DAX', 'SMI', 'CAC', 'FTSE']);
    expect(eu[0].values.slice(0, 2)).toEqual([1628.75, 1613.63]);
    await expect(loadDataset('classic_series', { root: '/nonexistent' })).rejects.toMatchObject({ code: 'config' });
  });

  it('reads taylor as one half-hourly series (30min, 4032 values from 2000-06-05)', async () => {
    const [taylor, ...rest] = await loadDataset('taylor');
    expect(rest).toEqual([]);
    expect(taylor).toMatchObject({ name: 'taylor', frequency: '30min', start: '2000-06-05T00:00:00Z' });
    expect(taylor?.values).toHaveLength(4032);
    expect(taylor?.values.slice(0, 2)).toEqual([22262, 21756]);
  });
});
