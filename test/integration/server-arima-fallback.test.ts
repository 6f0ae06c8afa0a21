import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastResponseSchema } from '../../src/contract/forecast.js';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { http, isvc } from './server-http.js';

let server: RunningServer;

beforeAll(async () => {
  server = await serve([isvc('arima', { args: ['--model_id=baseline/auto-arima'] })], { loaders: defaultLoaders({ offline: true }), port: 0, inference: { workerThreads: false } });
  await server.loaded();
}, 60_000);
afterAll(() => server?.close());

describe('served AutoARIMA on a series no ARIMA fits', () => {
  it('answers 200 with the seasonal-naive forecast and a model_fallback warning naming it', async () => {
    // An exactly repeating monthly profile: after the seasonal difference every value is 0, so no
    // candidate model has a likelihood and the search fails for real.
    const profile = [112, 118, 132, 129, 121, 135, 148, 148, 136, 119, 104, 118];
    const series = Array.from({ length: 36 }, (_, t) => profile[t % 12]);
    const a = await http(server.url, '/v1/timeseries/forecast', {
      body: {
        model: 'arima',
        inputs: [
          { type: 'univariate_time_series', name: 'profile', series, frequency: 'M', start_timestamp: '2021-01-31T00:00:00Z' },
          { type: 'univariate_time_series', name: 'trend', series: series.map((v, t) => v + 0.37 * t + ((t * 7) % 5)), frequency: 'M', start_timestamp: '2021-01-31T00:00:00Z' },
        ],
        options: { horizon: 4, quantiles: [0.1, 0.9] },
      },
    });
    expect(a.status).toBe(200);
    const res = ForecastResponseSchema.parse(a.json());
    const [fellBack, fitted] = res.outputs;
    expect(fellBack.warnings).toEqual([expect.objectContaining({ code: 'model_fallback', message: expect.stringContaining('seasonal-naive') })]);
    expect(fellBack.content[0].mean_forecast).toEqual([112, 118, 132, 129]);
    expect(fitted.warnings ?? []).toEqual([]);
    expect(fitted.content[0].mean_forecast?.every(Number.isFinite)).toBe(true);
  });
});
