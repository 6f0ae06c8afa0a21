import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastResponseSchema, type ForecastResponse } from '../../src/contract/forecast.js';
import { localForecaster } from '../../src/protocol/forecast/local-forecaster.js';
import { autoEts } from '../../src/runtime/forecast/ets/auto-ets.js';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { http, isvc } from './server-http.js';

// `--max_context=N` reaches AutoETS served in worker threads (the default plan) and in the main thread.
const services = [
  isvc('ets24', { modelName: 'ets24', args: ['--model_id=auto-ets', '--max_context=24'] }),
  isvc('ets', { modelName: 'ets', args: ['--model_id=auto-ets'] }),
  isvc('zero', { modelName: 'zero', args: ['--model_id=auto-ets', '--max_context=0'] }),
  isvc('abc', { modelName: 'abc', args: ['--model_id=ets', '--max_context=abc'] }),
  isvc('mstl', { modelName: 'mstl', args: ['--model_id=mstl', '--max_context=24'] }),
];
let workers: RunningServer;
let inThread: RunningServer;
const logged: string[] = [];

beforeAll(async () => {
  const opts = { loaders: defaultLoaders({ offline: true }), port: 0, log: (line: string) => void logged.push(line) };
  [workers, inThread] = await Promise.all([serve(services, opts), serve(services, { ...opts, inference: { workerThreads: false } })]);
  await Promise.all([workers.loaded(), inThread.loaded()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([workers?.close(), inThread?.close()]);
});

/** 300 days: a weekly pattern on a level that steps up by 30 at day 270 and then falls, with fixed noise. */
const series = Array.from({ length: 300 }, (_, t) => 100 + [5, 3, 0, -1, -2, -4, -1][t % 7] + (t >= 270 ? 30 - 0.8 * (t - 270) : 0.05 * t) + 0.8 * Math.sin(t * 12.9898));
const body = (model: string) => ({
  model,
  inputs: [{ type: 'univariate_time_series' as const, name: 'sales', series, frequency: 'D' as const, start_timestamp: '2024-01-01T00:00:00Z' }],
  options: { horizon: 14, quantiles: [0.1, 0.5, 0.9] },
});
const content = (r: ForecastResponse) => r.outputs.map((o) => o.content);

async function served(server: RunningServer, model: string): Promise<ForecastResponse> {
  const r = await http(server.url, '/v1/timeseries/forecast', { body: body(model), headers: { host: `${model}.default.example.com` } });
  expect(r.status, r.text).toBe(200);
  return ForecastResponseSchema.parse(r.json());
}

describe('served auto-ets --max_context', () => {
  it('runs in worker threads by the default plan, in the main thread without them', () => {
    expect(workers.inference.models[0]).toMatchObject({ worker: true, threads: expect.any(Number) });
    expect(workers.inference.models[0]?.threads).toBeGreaterThan(0);
    expect(inThread.inference.models[0]?.worker).toBe(false);
    // an implemented arg: no "not implemented … ignored" warning
    expect(logged.filter((l) => l.includes('--max_context is not implemented'))).toEqual([]);
  });

  it.each([['worker threads'], ['main thread']])('forecasts as in-kernel AutoETS with maxContext 24 (%s), not as the default', async (where) => {
    const server = where === 'worker threads' ? workers : inThread;
    const capped = await served(server, 'ets24');
    const kernel = await localForecaster(autoEts({ name: 'ets24', maxContext: 24 })).forecast(body('ets24'));
    expect(content(capped)).toEqual(content(kernel));
    const full = await served(server, 'ets');
    const kernelFull = await localForecaster(autoEts({ name: 'ets' })).forecast(body('ets'));
    expect(content(full)).toEqual(content(kernelFull));
    const mean = (r: ForecastResponse) => ((r.outputs[0]?.content?.[0]?.mean_forecast ?? []) as unknown[]).map(Number);
    expect(mean(capped)).toHaveLength(14);
    // the step at day 270 dominates the last 24 days: a clearly different forecast from the 300-day fit
    expect(Math.max(...mean(capped).map((v, h) => Math.abs(v - (mean(full)[h] ?? Number.NaN))))).toBeGreaterThan(1);
  }, 60_000);

  it.each([
    ['zero', /--max_context: expected an integer ≥ 5, got "0"/],
    ['abc', /--max_context: expected an integer ≥ 5, got "abc"/],
    ['mstl', /--max_context is used only by the baseline --model_id=auto-ets; model "mstl" does not use it/],
  ])('a bad --max_context fails %s\'s load naming the flag', async (model, message) => {
    const r = await http(inThread.url, '/v1/timeseries/forecast', { body: body(model), headers: { host: `${model}.default.example.com` } });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(600);
    expect((r.json() as { error: { message: string } }).error.message).toMatch(message);
    const ready = await http(inThread.url, `/v2/models/${model}/ready`);
    expect(ready.json()).toMatchObject({ ready: false, reason: expect.stringMatching(message) });
  });
});
