import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remote } from '../../src/client/remote.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { isvc } from './server-http.js';

let server: RunningServer;
beforeAll(async () => {
  server = await serve([isvc('naive', { args: ['--model_id=seasonal-naive', '--task=time_series_forecast'] })], { port: 0 });
  await server.loaded();
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const series = Array.from({ length: 20 }, (_, t) => 5 + (t % 4));
const input = (extra: Record<string, unknown>) => ({ type: 'univariate_time_series', name: 'sales', series, frequency: 'D', ...extra });

async function post(body: unknown): Promise<{ status: number; body: { status: string; error?: { code: string; param?: string | null; message: string } } }> {
  const res = await fetch(`${server.url}/v1/timeseries/forecast`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as never };
}

describe('covariates on the wire (real server)', () => {
  it('wrong covariate lengths are 400 invalid_covariates naming the field', async () => {
    const past = await post({ model: 'naive', inputs: [input({}), input({ name: 'b', past_covariates: { temp: [1, 2, 3] } })], options: { horizon: 3 } });
    expect(past.status).toBe(400);
    expect(past.body.error).toMatchObject({ code: 'invalid_covariates', param: 'inputs[1].past_covariates.temp' });
    const future = await post({ model: 'naive', inputs: [input({ past_covariates: { promo: series.map(() => 0) }, future_covariates: { promo: [1, 1] } })], options: { horizon: 3 } });
    expect(future.status).toBe(400);
    expect(future.body.error).toMatchObject({ code: 'invalid_covariates', param: 'inputs[0].future_covariates.promo' });
    expect(future.body.error?.message).toMatch(/expected 3 values/);
    const bad = await post({ model: 'naive', inputs: [input({ past_covariates: { temp: series.map(() => 'x') } })], options: { horizon: 3 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.param).toBe('inputs[0].past_covariates.temp[0]');
  });

  it('a served model that cannot read covariates answers with a covariates_ignored warning, through the client', async () => {
    const naive = remote({ baseUrl: server.url }, { modelName: 'naive' });
    const res = await naive.forecast({
      model: 'naive',
      inputs: [{ type: 'univariate_time_series', name: 'sales', series, frequency: 'D', past_covariates: { promo: series.map((_, t) => t % 2) }, future_covariates: { promo: [1, 0, 1] } }],
      options: { horizon: 3 },
    });
    expect(res.status).toBe('completed');
    expect(res.outputs[0]?.warnings?.[0]).toMatchObject({ code: 'covariates_ignored', param: 'inputs[0].past_covariates' });
  });
});
