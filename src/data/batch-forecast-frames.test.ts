import { DataFrame } from 'danfojs-node';
import { describe, expect, it } from 'vitest';
import { localForecaster } from '../protocol/forecast/local-forecaster.js';
import { seasonalNaive } from '../runtime/forecast/seasonal-naive.js';
import { theta } from '../runtime/forecast/theta.js';
import { batchForecast } from './batch-forecast.js';
import type { BatchProgress } from './batch-result.js';
import { toColumns } from './columns.js';

/** `n` monthly values from 2020-01 with a yearly cycle. */
const monthly = (id: string, n: number, level = 100) =>
  Array.from({ length: n }, (_, t) => ({ unique_id: id, ds: new Date(Date.UTC(2020, t, 1)).toISOString().slice(0, 10), y: level + 10 * Math.sin((2 * Math.PI * t) / 12) + t }));

const frame = (rows: Array<Record<string, unknown>>) => new DataFrame(rows);

describe('batchForecast on frames', () => {
  it('forecasts the good series of a danfojs frame in statsforecast names; bad spacing and too-short series fail alone', async () => {
    const irregular = ['2020-01-01', '2020-01-02', '2020-03-09', '2020-07-20'].map((ds, i) => ({ unique_id: 'irregular', ds, y: i }));
    const df = frame([...monthly('good', 36), ...irregular, { unique_id: 'short', ds: '2021-01-01', y: 5 }, ...monthly('also-good', 30, 50)]);
    const events: BatchProgress[] = [];
    const r = await batchForecast(df, localForecaster(seasonalNaive()), { horizon: 3, level: [80], onProgress: (p) => events.push(p) });
    expect(r.status).toBe('partial');
    expect(r.forecasts.map((f) => [f.name, f.start_timestamp])).toEqual([['good', '2023-01-01T00:00:00Z'], ['also-good', '2022-07-01T00:00:00Z']]);
    expect(Object.keys(r.forecasts[0].quantiles ?? {})).toEqual(['0.1', '0.9']);
    expect(r.failures.map((f) => [f.name, f.error.code])).toEqual([['irregular', 'invalid_series'], ['short', 'invalid_series']]);
    expect(r.failures[0].error.message).toMatch(/irregular spacing/);
    expect(r.failures[1].error.message).toMatch(/at least two timestamps/);
    expect(events[0]).toEqual({ done: 2, total: 4, failed: 2 });
    expect(events.at(-1)).toEqual({ done: 4, total: 4, failed: 2 });
  });

  it('runs several models in one call: a column per model, quantile and level, errors in the frame', async () => {
    const df = frame([...monthly('a', 36), ...monthly('b', 24, 10), { unique_id: 'short', ds: '2021-01-01', y: 5 }]);
    const r = await batchForecast(df, [seasonalNaive(), theta()], { horizon: 2, quantiles: [0.5], level: [80] });
    expect(r.status).toBe('partial');
    expect(r.frame.columns).toEqual([
      'unique_id', 'ds',
      'seasonal-naive', 'seasonal-naive-q0.5', 'seasonal-naive-lo-80', 'seasonal-naive-hi-80',
      'theta', 'theta-q0.5', 'theta-lo-80', 'theta-hi-80', 'error',
    ]);
    const cols = toColumns(r.frame);
    expect(cols.get('unique_id')).toEqual(['a', 'a', 'b', 'b', 'short']);
    expect(cols.get('ds')).toEqual(['2023-01-01T00:00:00Z', '2023-02-01T00:00:00Z', '2022-01-01T00:00:00Z', '2022-02-01T00:00:00Z', null]);
    expect(cols.get('error')?.slice(0, 4)).toEqual([null, null, null, null]);
    expect(cols.get('error')?.[4]).toMatch(/at least two timestamps/);
    // Each model's columns are that model's own forecast.
    const alone = await batchForecast(df, theta(), { horizon: 2, quantiles: [0.1, 0.5, 0.9] });
    const a = alone.forecasts[0];
    expect(cols.get('theta')?.slice(0, 2)).toEqual(a.mean_forecast);
    expect(cols.get('theta-lo-80')?.slice(0, 2)).toEqual(a.quantiles?.['0.1']);
    expect(cols.get('theta-hi-80')?.slice(0, 2)).toEqual(a.quantiles?.['0.9']);
    expect(r.models['seasonal-naive'].forecasts).toHaveLength(2);
    expect(r.failures.map((f) => [f.model, f.name])).toEqual([['seasonal-naive', 'short'], ['theta', 'short']]);
    // A record names the columns.
    const named = await batchForecast(monthly('a', 24), { naive: seasonalNaive(), th: localForecaster(theta()) }, { horizon: 1 });
    expect([named.status, named.frame.columns]).toEqual(['completed', ['unique_id', 'ds', 'naive', 'th']]);
  });

  it('rejects a bad level and duplicate model names, naming the field', async () => {
    await expect(batchForecast(monthly('a', 24), seasonalNaive(), { horizon: 1, level: [180] })).rejects.toThrow(/level\[0\]: expected a level in percent/);
    await expect(batchForecast(monthly('a', 24), [seasonalNaive(), seasonalNaive()], { horizon: 1 })).rejects.toThrow(/two models are named "seasonal-naive"/);
  });
});
