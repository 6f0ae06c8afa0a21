import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChronosFixtureRepo } from '../../src/onnx/model-repo.js';
import type { ForecastModel } from '../../src/runtime/forecast/forecast-model.js';
import { loadChronosBolt } from '../../src/runtime/forecast/load-chronos-bolt.js';
import { servedForecastModel } from '../../src/server/default-loaders.js';
import type { ModelLoaders } from '../../src/server/model-loader.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { http, isvc } from './server-http.js';
import { tempDir } from '../fixtures/temp-dirs.js';

/** Every underlying `predict` call the model got: horizon and number of series. */
const calls: Array<{ horizon: number; series: number }> = [];

/** The real model, recording each call it gets (below the server's merging wrapper). */
function counting(model: ForecastModel): ForecastModel {
  return {
    name: model.name,
    nativeHorizon: model.nativeHorizon,
    quantiles: model.quantiles,
    patchSize: model.patchSize,
    contextLength: model.contextLength,
    predict: (batch, horizon, opts) => {
      calls.push({ horizon, series: batch.length });
      return model.predict(batch, horizon, opts);
    },
    dispose: () => model.dispose(),
  };
}

let dir: string;
const loaders: ModelLoaders = {
  time_series_forecast: async ({ config }) => servedForecastModel(counting(await loadChronosBolt(dir, { name: config.modelName }))),
};
const manifests = [isvc('chronos', { args: ['--model_id=chronos-fixture', '--task=time_series_forecast'] })];

let batched: RunningServer;
let unbatched: RunningServer;
beforeAll(async () => {
  dir = join(tempDir('inferkit-fbatch-'), 'rule');
  await writeChronosFixtureRepo(dir, { kind: 'rule', predictionLength: 8, contextLength: 64, trend: 0.5 });
  // The rule graph answers in microseconds: without the idle wait window nothing would ever queue up.
  batched = await serve(manifests, { loaders, port: 0, maxBatchSize: 32, maxWaitMs: 25, waitWhenIdle: true });
  unbatched = await serve(manifests, { loaders, port: 0, maxWaitMs: 0 });
  await Promise.all([batched.loaded(), unbatched.loaded()]);
  expect(batched.models()[0].ready).toBe(true);
});
afterAll(async () => {
  await batched?.close();
  await unbatched?.close();
});

/** Request i: 1-2 inputs of different lengths and levels, one of them bivariate for some i. */
function body(i: number, horizon: number, extra: object[] = []) {
  const series = (k: number) => Array.from({ length: 5 + ((i * 3 + k) % 17) }, (_, t) => i * 10 + k + ((t * 7) % 5));
  const inputs: object[] = [{ type: 'univariate_time_series', name: `u${i}`, series: series(0), frequency: 'D', start_timestamp: '2024-01-01T00:00:00Z' }];
  if (i % 3 === 0) {
    inputs.push({ type: 'multivariate_time_series', name: `m${i}`, series: series(1).map((v) => [v, -v / 2]), frequency: 'H' });
  }
  return { model: 'chronos', inputs: [...inputs, ...extra], options: { horizon, quantiles: [0.1, 0.25, 0.5, 0.9] } };
}

/** The response without what differs between two identical calls (ids, time). */
function stable(json: unknown): { status?: string; [key: string]: unknown } {
  const r = json as { id?: string; created_at?: number; status?: string; outputs?: Array<{ id?: string }> };
  return { ...r, id: undefined, created_at: undefined, outputs: r.outputs?.map((o) => ({ ...o, id: undefined })) };
}

async function burst(server: RunningServer, bodies: object[]) {
  const answers = await Promise.all(bodies.map((b) => http(server.url, '/v1/timeseries/forecast', { body: b })));
  return answers.map((a) => ({ status: a.status, body: stable(a.json()) }));
}

/** Series the model forecasts for `bodies` (a bivariate input is two). */
const seriesIn = (bodies: Array<{ inputs: object[] }>) =>
  bodies.flatMap((b) => b.inputs).reduce((n: number, input) => n + ((input as { type: string }).type === 'multivariate_time_series' ? 2 : 1), 0);

describe('serve: forecast dynamic batching', () => {
  it('24 concurrent requests get exactly the unbatched answers while predict calls are merged', async () => {
    const bodies = Array.from({ length: 24 }, (_, i) => body(i, 8));
    calls.length = 0;
    const alone = await burst(unbatched, bodies);
    expect(calls.length).toBe(24); // one call per request without merging
    calls.length = 0;
    const merged = await burst(batched, bodies);
    expect(merged).toEqual(alone);
    expect(merged.every((m) => m.status === 200 && m.body.status === 'completed')).toBe(true);
    const first = merged[0].body as unknown as { outputs: Array<{ content: Array<{ mean_forecast: number[] }> }> };
    // Rule fixture: median = mean of the series + 0.5·(h+1); u0 = [0, 2, 4, 1, 3] → 2.5, 3, 3.5, …
    expect(first.outputs[0].content[0].mean_forecast.slice(0, 3)).toEqual([2.5, 3, 3.5]);
    expect(calls.reduce((n, c) => n + c.series, 0)).toBe(seriesIn(bodies));
    expect(calls.length).toBeLessThan(24);
    expect(Math.max(...calls.map((c) => c.series))).toBeGreaterThan(3);
    expect(Math.max(...calls.map((c) => c.series))).toBeLessThanOrEqual(32);
    const metrics = (await http(batched.url, '/metrics')).text;
    const merges = /inferkit_batch_requests_count\{model="chronos"\} (\d+)/.exec(metrics);
    const requestsMerged = /inferkit_batch_requests_sum\{model="chronos"\} (\d+)/.exec(metrics);
    expect(Number(merges?.[1])).toBe(calls.length);
    expect(Number(requestsMerged?.[1])).toBe(24);
  });

  it('different horizons are never merged into one call, rolled-out ones included', async () => {
    const horizons = [3, 8, 12, 20];
    const bodies = Array.from({ length: 16 }, (_, i) => body(i, horizons[i % 4]));
    const alone = await burst(unbatched, bodies);
    calls.length = 0;
    const merged = await burst(batched, bodies);
    expect(merged).toEqual(alone);
    for (const [i, m] of merged.entries()) {
      const out = (m.body as unknown as { outputs: Array<{ content: Array<{ mean_forecast: unknown[] }> }> }).outputs;
      expect(out[0].content[0].mean_forecast).toHaveLength(horizons[i % 4]);
    }
    // Horizon 12 = 8 + 4 and 20 = 8 + 8 + 4 (rollout): calls are only for 3, 4 or 8 steps, with fewer calls than unmerged.
    expect(new Set(calls.map((c) => c.horizon))).toEqual(new Set([3, 4, 8]));
    expect(calls.length).toBeLessThan(4 + 4 + 8 + 12);
  });

  it('a failing series in one request leaves the others in the same merge untouched', async () => {
    const bad = [
      { type: 'univariate_time_series', name: 'empty', series: [null, null, null], frequency: 'D' },
      { type: 'univariate_time_series', name: 'overflow', series: [3e38, 3e38, 3e38], frequency: 'D' },
    ];
    const bodies = Array.from({ length: 16 }, (_, i) => body(i, 8, i === 5 ? bad : []));
    const alone = await burst(unbatched, bodies);
    calls.length = 0;
    const merged = await burst(batched, bodies);
    expect(merged).toEqual(alone);
    expect(calls.length).toBeLessThan(16);
    const five = merged[5].body as unknown as { status: string; outputs: Array<{ status: string; error: { code: string } | null }> };
    expect(five.status).toBe('partial');
    expect(five.outputs.map((o) => [o.status, o.error?.code ?? null])).toEqual([
      ['completed', null],
      ['error', 'invalid_series'],
      ['error', 'model_error'],
    ]);
    expect(merged.filter((_, i) => i !== 5).every((m) => m.status === 200 && m.body.status === 'completed')).toBe(true);
  });
});
