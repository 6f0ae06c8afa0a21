import { describe, expect, it } from 'vitest';
import type { TimeSeriesInput } from '../../src/contract/forecast.js';
import { batchForecast } from '../../src/data/batch-forecast.js';
import { loadDataset } from '../../src/eval/datasets.js';
import { evaluate } from '../../src/eval/evaluate.js';
import { localForecaster } from '../../src/protocol/forecast/local-forecaster.js';
import { autoEts } from '../../src/runtime/forecast/ets/auto-ets.js';
import { mstl } from '../../src/runtime/forecast/mstl/mstl.js';
import { seasonalNaive } from '../../src/runtime/forecast/seasonal-naive.js';

const monthly = async () => (await loadDataset('classic_series')).filter((s) => s.frequency === 'month');

describe('AutoETS and MSTL wherever a forecaster goes', () => {
  it.each([autoEts(), mstl()])('$name: batchForecast over the classic monthly series', async (model) => {
    const inputs: TimeSeriesInput[] = (await monthly()).map((s) => ({
      type: 'univariate_time_series',
      name: s.name,
      series: s.values,
      frequency: 'month',
      start_timestamp: s.start ?? '2000-01-01T00:00:00Z',
    }));
    const r = await batchForecast(inputs, localForecaster(model), { horizon: 12, quantiles: [0.1, 0.9], chunkSize: 4 });
    expect(r.status).toBe('completed');
    expect(r.forecasts.map((f) => f.name)).toEqual(inputs.map((i) => i.name));
    for (const f of r.forecasts) {
      const [lo, hi] = [f.quantiles?.['0.1'], f.quantiles?.['0.9']] as number[][];
      f.mean_forecast.forEach((m, h) => {
        expect(Number.isFinite(m)).toBe(true);
        expect(lo[h]).toBeLessThan(hi[h]);
      });
    }
  });

  it('backtests: both beat seasonal naive on the classic monthly series (MASE, 3 folds)', async () => {
    const series = await monthly();
    const [ets, m, naive] = await Promise.all([autoEts(), mstl(), seasonalNaive()].map((model) => evaluate(model, series, { horizon: 12 })));
    expect(ets.mase).toBeLessThan(naive.mase);
    expect(m.mase).toBeLessThan(naive.mase);
    expect(ets.series.map((s) => s.folds)).toEqual([3, 3, 3, 3, 3, 3]);
  });
});
