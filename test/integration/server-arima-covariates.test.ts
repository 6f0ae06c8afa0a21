import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localForecaster } from '../../src/protocol/forecast/local-forecaster.js';
import { autoArima } from '../../src/runtime/forecast/arima/auto-arima.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { isvc } from './server-http.js';

// Served baselines other than seasonal naive run in worker threads (the default plan): the covariates must cross to them.
let server: RunningServer;
beforeAll(async () => {
  server = await serve([isvc('arima', { args: ['--model_id=auto-arima', '--task=time_series_forecast'] })], { port: 0 });
  await server.loaded();
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const n = 96;
const H = 6;
// Weekly-ish promotions explain the series: y = 50 + 8·promo + a fixed small wiggle.
const promo = Array.from({ length: n + H }, (_, t) => (t % 9 < 2 ? 1 : 0));
const series = Array.from({ length: n }, (_, t) => 50 + 8 * promo[t] + Math.sin(t * 12.9898));
const request = (future: number[]) => ({
  model: 'arima',
  inputs: [{ type: 'univariate_time_series' as const, name: 's', series, frequency: 'D', past_covariates: { promo: promo.slice(0, n) }, future_covariates: { promo: future } }],
  options: { horizon: H, quantile_levels: [0.1, 0.9] },
});

describe('served AutoARIMA with future_covariates (worker threads)', () => {
  it('forecasts what the in-kernel model forecasts, regressors included, with no covariates_ignored warning', { timeout: 60_000 }, async () => {
    const post = async (future: number[]) => {
      const res = await fetch(`${server.url}/v1/timeseries/forecast`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request(future)) });
      expect(res.status).toBe(200);
      return ((await res.json()) as { outputs: Array<{ warnings?: unknown[]; content: Array<{ mean_forecast: number[]; quantiles: Record<string, number[]> }> }> }).outputs[0];
    };
    const kernel = localForecaster(autoArima({ name: 'arima' }));
    const future = promo.slice(n);
    const served = await post(future);
    const local = (await kernel.forecast(request(future))).outputs[0];
    expect(served.warnings ?? []).toEqual([]);
    expect(served.content[0].mean_forecast).toEqual(local.content[0].mean_forecast);
    expect(served.content[0].quantiles).toEqual(local.content[0].quantiles);
    // The regressor is used: promotion on every future step lifts the forecast by about its effect, 8.
    const on = await post(new Array(H).fill(1));
    const off = await post(new Array(H).fill(0));
    const lift = on.content[0].mean_forecast.map((v, h) => v - off.content[0].mean_forecast[h]);
    expect(Math.min(...lift)).toBeGreaterThan(7);
    expect(Math.max(...lift)).toBeLessThan(9);
  });
});
