import { DataFrame } from 'danfojs-node';
import { describe, expect, it } from 'vitest';
import { crossValidationFigure } from '../plot/cross-validation-figure.js';
import { localForecaster } from '../protocol/forecast/local-forecaster.js';
import { seasonalNaive } from '../runtime/forecast/seasonal-naive.js';
import { theta } from '../runtime/forecast/theta.js';
import { toColumns } from './columns.js';
import { crossValidation } from './cross-validation.js';

const values = (n: number) => Array.from({ length: n }, (_, t) => 100 + 10 * Math.sin((2 * Math.PI * t) / 12) + t);
const monthly = (id: string, n: number) => values(n).map((y, t) => ({ unique_id: id, ds: new Date(Date.UTC(2020, t, 1)).toISOString().slice(0, 10), y }));

describe('crossValidation', () => {
  it('returns the per-cutoff frame of statsforecast: unique_id, ds, cutoff, y, a column per model', async () => {
    const df = new DataFrame([...monthly('a', 36), ...monthly('b', 30)]);
    const cv = await crossValidation(df, [seasonalNaive(), theta()], { horizon: 3, windows: 2, step: 2, level: [80] });
    expect(cv.columns).toEqual(['unique_id', 'ds', 'cutoff', 'y', 'seasonal-naive', 'seasonal-naive-lo-80', 'seasonal-naive-hi-80', 'theta', 'theta-lo-80', 'theta-hi-80']);
    const c = toColumns(cv);
    expect(cv.shape[0]).toBe(2 * 2 * 3);
    // Series a (36 months from 2020-01): cutoffs after 31 and 33 values.
    expect(c.get('cutoff')?.slice(0, 6)).toEqual(Array(3).fill('2022-07-01T00:00:00Z').concat(Array(3).fill('2022-09-01T00:00:00Z')));
    expect(c.get('ds')?.slice(0, 4)).toEqual(['2022-08-01T00:00:00Z', '2022-09-01T00:00:00Z', '2022-10-01T00:00:00Z', '2022-10-01T00:00:00Z']);
    expect(c.get('y')?.slice(0, 3)).toEqual(values(36).slice(31, 34));
    // The model columns are that model's forecast from the truncated series.
    const f = localForecaster(theta());
    const direct = await f.forecast({
      model: f.name,
      inputs: [{ type: 'univariate_time_series', name: 'a', frequency: 'month', start_timestamp: '2020-01-01T00:00:00Z', series: values(36).slice(0, 31) }],
      options: { horizon: 3, quantiles: [0.1, 0.9] },
    });
    const content = direct.outputs[0].content[0];
    expect(c.get('theta')?.slice(0, 3)).toEqual(content.mean_forecast);
    expect(c.get('theta-lo-80')?.slice(0, 3)).toEqual(content.quantiles?.['0.1']);
  });

  it('rejects bad call options before any model runs, naming the field (no options at all in plain JS too)', async () => {
    const df = new DataFrame(monthly('a', 36));
    let calls = 0;
    const counted = localForecaster(theta());
    const model = { name: counted.name, forecast: (r: Parameters<typeof counted.forecast>[0]) => (calls++, counted.forecast(r)) };
    const bad: Array<[unknown, RegExp]> = [
      [undefined, /^crossValidation: options\.horizon: /],
      [{ horizon: 0 }, /^crossValidation: options\.horizon: expected a positive horizon/],
      [{ horizon: 3, quantiles: [1.5] }, /^crossValidation: options\.quantiles\[0\]: expected a quantile level in \(0, 1\)/],
      [{ horizon: 3, level: [120] }, /^crossValidation: options\.level\[0\]: expected a level in percent in \(0, 100\)/],
    ];
    for (const [options, message] of bad) {
      await expect(crossValidation(df, model, options as { horizon: number })).rejects.toThrow(message);
    }
    expect(calls).toBe(0);
    await crossValidation(df, model, { horizon: 3 });
    expect(calls).toBeGreaterThan(0);
  });

  it('leaves out windows a series is too short for, and reports series with none (or unreadable) in `error`', async () => {
    const rows = [...monthly('long', 24), ...monthly('tiny', 3), { unique_id: 'one', ds: '2020-01-01', y: 1 }];
    const cv = await crossValidation(rows, { naive: seasonalNaive() }, { horizon: 3, windows: 8 });
    const c = toColumns(cv);
    expect(cv.columns).toEqual(['unique_id', 'ds', 'cutoff', 'y', 'naive', 'error']);
    const ids = c.get('unique_id') ?? [];
    expect(ids.filter((i) => i === 'long')).toHaveLength(7 * 3);
    expect(ids.slice(-2)).toEqual(['one', 'tiny']);
    const errors = c.get('error')?.slice(-2) as string[];
    expect(errors[0]).toMatch(/at least two timestamps/);
    expect(errors[1]).toBe('too short for cross-validation: 3 values, horizon 3, 8 windows 3 apart');
    await expect(crossValidation(rows, seasonalNaive(), { horizon: 0 })).rejects.toThrow(/options.horizon: expected a positive horizon/);
  });

  it('plots the frame: actual values, one line per model and cutoff, cutoffs marked', async () => {
    const cv = await crossValidation(monthly('a', 36), [seasonalNaive(), theta()], { horizon: 4, windows: 3 });
    const fig = crossValidationFigure(cv);
    expect(fig.data.map((t) => [t.name, t.showlegend])).toEqual([
      ['actual', true], ['seasonal-naive', true], ['seasonal-naive', false], ['seasonal-naive', false], ['theta', true], ['theta', false], ['theta', false],
    ]);
    expect(fig.data[0].x).toHaveLength(12);
    expect((fig.layout.shapes as Array<{ x0: unknown }>).map((s) => s.x0)).toEqual(['2021-12-01T00:00:00Z', '2022-04-01T00:00:00Z', '2022-08-01T00:00:00Z']);
    expect(() => crossValidationFigure(cv, { models: ['ets'] })).toThrow(/no column ets/);
  });
});
