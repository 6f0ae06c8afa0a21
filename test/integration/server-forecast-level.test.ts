import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastResponseSchema } from '../../src/contract/forecast.js';
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
