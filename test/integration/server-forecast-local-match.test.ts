import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastResponseSchema, type ForecastResponse } from '../../src/contract/forecast.js';
import type { Forecaster } from '../../src/contract/predictor.js';
import { localForecaster } from '../../src/protocol/forecast/local-forecaster.js';
import { seasonalNaive } from '../../src/runtime/forecast/seasonal-naive.js';
import type { ModelLoaders } from '../../src/server/model-loader.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { fixtureLoaders, forecastBody, http, isvc, nerFixtureDir } from './server-http.js';

let server: RunningServer;

beforeAll(async () => {
  server = await serve([isvc('fc', { modelName: 'chronos', args: ['--model_id=baseline/seasonal-naive'] })], { loaders: fixtureLoaders(await nerFixtureDir()), port: 0 });
  await server.loaded();
});
afterAll(() => server?.close());

describe('POST /v1/timeseries/forecast with options.level (inferkit extension)', () => {
  it('answers level [80, 95] under the usual quantiles keys, in a conformant response', async () => {
    const body = forecastBody('chronos', 4);
    const a = await http(server.url, '/v1/timeseries/forecast', { body: { ...body, options: { horizon: 4, level: [80, 95] } } });
    expect(a.status).toBe(200);
    const res = ForecastResponseSchema.parse(a.json());
    expect(Object.keys(res.outputs[0]?.content[0]?.quantiles ?? {})).toEqual(['0.025', '0.1', '0.9', '0.975']);
  });

  it('a bad level is a 400 invalid_quantile naming options.level[0]', async () => {
    const a = await http(server.url, '/v1/timeseries/forecast', { body: { ...forecastBody('chronos'), options: { horizon: 2, level: [0] } } });
    expect(a.status).toBe(400);
    expect(a.json()).toMatchObject({ status: 'error', error: { code: 'invalid_quantile', param: 'options.level[0]', type: 'invalid_request_error' } });
  });
});

/** A response without its random ids and clock. */
function stable(r: ForecastResponse): unknown {
  return { ...r, id: undefined, created_at: undefined, outputs: r.outputs.map((o) => ({ ...o, id: undefined })) };
}

describe('the server and localForecaster answer alike', () => {
  it('echo each frequency as the caller spelled it ("D" stays "D", "30min", "month", "ME") and forecast the same', async () => {
    const series = Array.from({ length: 30 }, (_, t) => 5 + (t % 4));
    const request = {
      model: 'chronos',
      inputs: ['D', '30min', 'month', 'ME', 'h'].map((frequency, i) => ({ type: 'univariate_time_series' as const, name: `s${i}`, series, frequency, start_timestamp: '2024-01-31T00:00:00Z' })),
      options: { horizon: 3, level: [80] },
    };
    const served = ForecastResponseSchema.parse((await http(server.url, '/v1/timeseries/forecast', { body: request })).json());
    const local = await localForecaster(seasonalNaive({ name: 'chronos' })).forecast(request);
    expect(local.outputs.map((o) => o.content[0]?.frequency)).toEqual(['D', '30min', 'month', 'ME', 'h']);
    expect(stable(served)).toEqual(stable(local));
  });
});

describe("a loader's own forecaster (not localForecaster)", () => {
  it('gets the parsed request as a request, and its canonical frequencies go back as the caller spelled them', async () => {
    const seen: unknown[] = [];
    const inner = localForecaster(seasonalNaive({ name: 'own' }));
    // A plain Forecaster, as a loader wrapping another service would return: only `forecast`.
    const own: Forecaster = {
      name: 'own',
      forecast: (request, call) => {
        seen.push(request);
        return inner.forecast(request, call);
      },
    };
    const loaders: ModelLoaders = { time_series_forecast: async () => ({ task: 'time_series_forecast', forecaster: own }) };
    const s = await serve([isvc('own', { modelName: 'own', args: ['--model_id=baseline/seasonal-naive'] })], { loaders, port: 0 });
    try {
      await s.loaded();
      const request = { model: 'own', inputs: [{ type: 'univariate_time_series' as const, name: 'a', series: [1, 2, 3, 4, 5, 6], frequency: 'D', start_timestamp: '2024-01-01T00:00:00Z' }], options: { horizon: 2 } };
      const a = await http(s.url, '/v1/timeseries/forecast', { body: request });
      expect(a.status).toBe(200);
      const res = ForecastResponseSchema.parse(a.json());
      const direct = await localForecaster(seasonalNaive({ name: 'own' })).forecast(request);
      expect(res.outputs[0]?.content[0]).toEqual({ ...direct.outputs[0]?.content[0], frequency: 'D' });
      // It was called once, with the body as the route parsed it (frequency "D" read as "day"), and answered "day":
      // the route wrote back "D", as sent.
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ model: 'own', inputs: [{ frequency: 'day' }], options: { horizon: 2 } });
    } finally {
      await s.close();
    }
  });
});
