import { DataFrame } from 'danfojs-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remote } from '../../src/client/remote.js';
import { batchForecast } from '../../src/data/batch-forecast.js';
import { toColumns } from '../../src/data/columns.js';
import { forecastToFrame } from '../../src/data/forecast-to-frame.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { http, isvc } from './server-http.js';

let server: RunningServer;
beforeAll(async () => {
  server = await serve([isvc('naive', { args: ['--model_id=seasonal-naive', '--task=time_series_forecast'] })], { port: 0 });
  await server.loaded();
  expect(server.models()[0].ready).toBe(true);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

/** Two weeks of half-hourly load with a daily shape: 48 values a day. */
const halfHourly = Array.from({ length: 48 * 14 }, (_, t) => 100 + 30 * Math.sin((2 * Math.PI * t) / 48) + ((t / 48) | 0));

const post = (inputs: object[], horizon: number) =>
  http(server.url, '/v1/timeseries/forecast', { body: { model: 'naive', inputs, options: { horizon, quantiles: [0.1, 0.9] } } });

describe('forecast API with frequency multiples and month-end anchors (real server)', () => {
  it('accepts 30min, echoes it, steps start_timestamp by 30 minutes and uses the daily season (48)', async () => {
    const res = await post([{ type: 'univariate_time_series', name: 'load', series: halfHourly, frequency: '30min', start_timestamp: '2024-01-01T00:00:00+01:00' }], 48);
    expect(res.status).toBe(200);
    const out = (res.json() as { outputs: Array<{ content: Array<{ frequency: string; start_timestamp: string; mean_forecast: number[] }> }> }).outputs[0].content[0];
    expect([out.frequency, out.start_timestamp]).toEqual(['30min', '2024-01-15T00:00:00+01:00']);
    // Seasonal naive with the 30min season repeats the last day, not the last hour.
    const lastDay = halfHourly.slice(-48);
    expect(Math.max(...out.mean_forecast.map((v, i) => Math.abs(v - lastDay[i])))).toBeLessThan(1e-4);
    const alias = await post([{ type: 'univariate_time_series', name: 'load', series: halfHourly.slice(0, 10), frequency: '30T', start_timestamp: '2024-01-01T00:00:00Z' }], 1);
    expect((alias.json() as { outputs: Array<{ content: Array<{ frequency: string; start_timestamp: string }> }> }).outputs[0].content[0]).toMatchObject({ frequency: '30T', start_timestamp: '2024-01-01T05:00:00Z' });
  });

  it('keeps month ends with ME (2019-02-28 + 30 months = 2021-08-31); plain M keeps the day as KServe does', async () => {
    const series = Array.from({ length: 30 }, (_, t) => t);
    const res = await post([
      { type: 'univariate_time_series', name: 'end', series, frequency: 'ME', start_timestamp: '2019-02-28T00:00:00Z' },
      { type: 'univariate_time_series', name: 'day', series, frequency: 'M', start_timestamp: '2019-02-28T00:00:00Z' },
    ], 2);
    const outs = (res.json() as { outputs: Array<{ content: Array<{ frequency: string; start_timestamp: string }> }> }).outputs.map((o) => o.content[0]);
    expect(outs.map((o) => [o.frequency, o.start_timestamp])).toEqual([['ME', '2021-08-31T00:00:00Z'], ['M', '2021-08-28T00:00:00Z']]);
  });

  it('rejects a malformed multiple with 400 naming the field', async () => {
    const res = await post([{ type: 'univariate_time_series', name: 'x', series: [1, 2], frequency: '0min' }], 1);
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ status: 'error', error: { param: 'inputs[0].frequency' } });
  });

  it('frames in, frames out through remote(): half-hourly and month-end series inferred, forecast on their own grid', async () => {
    const half = halfHourly.map((y, t) => ({ unique_id: 'load', ds: new Date(Date.UTC(2024, 0, 1) + t * 1_800_000).toISOString(), y }));
    const ends = Array.from({ length: 30 }, (_, t) => ({ unique_id: 'sales', ds: new Date(Date.UTC(2019, 2 + t, 0)).toISOString().slice(0, 10), y: 10 + t }));
    const m = remote({ baseUrl: server.url }, { isvc: isvc('naive', { args: ['--model_id=seasonal-naive', '--task=time_series_forecast'] }) });
    const r = await batchForecast(new DataFrame([...half, ...ends]), m, { horizon: 3 });
    expect(r.status).toBe('completed');
    expect(r.inputs.map((i) => [i.name, i.frequency])).toEqual([['load', '30min'], ['sales', 'ME']]);
    const stamps = toColumns(forecastToFrame(r.forecasts)).get('timestamp');
    expect(stamps).toEqual([
      '2024-01-15T00:00:00Z', '2024-01-15T00:30:00Z', '2024-01-15T01:00:00Z',
      '2021-08-31T00:00:00Z', '2021-09-30T00:00:00Z', '2021-10-31T00:00:00Z',
    ]);
  });
});
