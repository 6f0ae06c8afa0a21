import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastResponseSchema } from '../../src/contract/forecast.js';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { http, isvc } from './server-http.js';

let server: RunningServer;

beforeAll(async () => {
  server = await serve(
    [
      isvc('ets', { modelName: 'ets', args: ['--model_id=auto-ets'] }),
      isvc('mstl', { modelName: 'mstl-daily', args: ['--model_id=baseline/MSTL', '--seasonal_periods=7,14'] }),
      isvc('bad', { modelName: 'bad', args: ['--model_id=mstl', '--seasonal_periods=7,x'] }),
    ],
    { loaders: defaultLoaders({ offline: true }), port: 0, log: () => undefined },
  );
  await server.loaded();
});
afterAll(() => server?.close());

/** 8 weeks of a daily series with a weekly pattern, a slow rise and some fixed noise. */
const series = Array.from({ length: 56 }, (_, t) => 50 + 0.2 * t + [5, 3, 0, -1, -2, -4, -1][t % 7] + 0.8 * Math.sin(t * 12.9898));
const body = (model: string) => ({
  model,
  inputs: [{ type: 'univariate_time_series', name: 'sales', series, frequency: 'D', start_timestamp: '2024-01-01T00:00:00Z' }],
  options: { horizon: 14, quantiles: [0.1, 0.5, 0.9] },
});

describe('AutoETS and MSTL served by name', () => {
  it.each([
    ['ets', 'ets.default.example.com'],
    ['mstl-daily', 'mstl.default.example.com'],
  ])('%s answers the forecast route with ordered quantiles that keep the weekly pattern', async (model, host) => {
    const r = await http(server.url, '/v1/timeseries/forecast', { body: body(model), headers: { host } });
    expect(r.status).toBe(200);
    const res = ForecastResponseSchema.parse(r.json());
    const content = res.outputs[0].content?.[0];
    const q = content?.quantiles ?? {};
    // Univariate: each quantile is a flat list of numbers.
    const [lo, mid, hi] = ['0.1', '0.5', '0.9'].map((k) => (q[k] ?? []) as number[]);
    expect(mid).toHaveLength(14);
    for (let h = 0; h < 14; h++) {
      expect(lo[h]).toBeLessThan(mid[h]);
      expect(mid[h]).toBeLessThan(hi[h]);
    }
    // Monday (t ≡ 0) is the weekly peak and Saturday (t ≡ 5) the trough, in both forecast weeks.
    expect(mid[0]).toBeGreaterThan(mid[5] + 5);
    expect(mid[7]).toBeGreaterThan(mid[12] + 5);
    expect(hi[13] - lo[13]).toBeGreaterThan(hi[0] - lo[0]);
  });

  it('answers a short series and names an all-missing one, forecasting the rest', async () => {
    const b = body('ets');
    b.inputs.push({ ...b.inputs[0], name: 'short', series: [3, 4] }, { ...b.inputs[0], name: 'empty', series: [null, null, null] as unknown as number[] });
    const r = await http(server.url, '/v1/timeseries/forecast', { body: b, headers: { host: 'ets.default.example.com' } });
    const res = ForecastResponseSchema.parse(r.json());
    expect(res.outputs.map((o) => o.status)).toEqual(['completed', 'completed', 'error']);
    expect(res.outputs[1].content?.[0].mean_forecast.slice(0, 2)).toEqual([4, 4]);
    expect(res.outputs[2].error).toMatchObject({ code: 'invalid_series', param: 'inputs[2].series' });
  });

  it('refuses a bad --seasonal_periods, naming the flag', async () => {
    const r = await http(server.url, '/v1/timeseries/forecast', { body: body('bad'), headers: { host: 'bad.default.example.com' } });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.text).toMatch(/seasonal_periods/);
  });
});
