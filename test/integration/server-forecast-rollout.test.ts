import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChronosFixtureRepo } from '../../src/onnx/model-repo.js';
import { loadChronosBolt } from '../../src/runtime/forecast/load-chronos-bolt.js';
import { servedForecastModel } from '../../src/server/default-loaders.js';
import type { ModelLoaders } from '../../src/server/model-loader.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { http, isvc } from './server-http.js';

// Rule graph, native horizon 2, levels 0.1/0.5/0.9 with crossing offsets 0, 6, 2:
// out[k, h] = mean(last 8 present values) + offsets[k] (worked out in rollout-on-quantiles.test.ts).
let root: string;
let server: RunningServer;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-srv-rollout-'));
  const dir = join(root, 'cross');
  await writeChronosFixtureRepo(dir, { contextLength: 8, predictionLength: 2, patchSize: 4, quantiles: [0.1, 0.5, 0.9], offsets: [0, 6, 2] });
  const loaders: ModelLoaders = { time_series_forecast: async ({ config }) => servedForecastModel(await loadChronosBolt(dir, { name: config.modelName })) };
  server = await serve([isvc('bolt', { args: ['--model_id=bolt-fixture', '--task=time_series_forecast'] })], { loaders, port: 0, maxBatchSize: 32, maxWaitMs: 5 });
  await server.loaded();
});
afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

const body = (options: Record<string, unknown>) => ({
  model: 'bolt',
  inputs: [{ type: 'univariate_time_series', name: 'c', series: [4, 4], frequency: 'D' }],
  options: { horizon: 3, quantiles: [0.1, 0.5, 0.9], ...options },
});
type Answer = { status: string; outputs: Array<{ content: Array<{ mean_forecast: number[]; quantiles: Record<string, number[]> }> }>; error: { param?: string } | null };

describe('serve: forecast rollout beyond the native horizon', () => {
  it('rolls a served Chronos-Bolt out on all quantile paths by default (through the batching wrapper)', async () => {
    const res = await http(server.url, '/v1/timeseries/forecast', { body: body({}) });
    expect(res.status).toBe(200);
    const [c] = (res.json() as Answer).outputs[0].content;
    expect(c.mean_forecast).toEqual([10, 10, 7]); // raw 0.5 output, then the reduced 0.5 level
    expect(c.quantiles).toEqual({ '0.1': [4, 4, 4.8], '0.5': [6, 6, 7], '0.9': [10, 10, 11.4] });
  });

  it('takes options.rollout "median" per request and refuses other values naming the field', async () => {
    const median = await http(server.url, '/v1/timeseries/forecast', { body: body({ rollout: 'median' }) });
    expect((median.json() as Answer).outputs[0].content[0].mean_forecast).toEqual([10, 10, 13]);
    const bad = await http(server.url, '/v1/timeseries/forecast', { body: body({ rollout: 'samples' }) });
    expect(bad.status).toBe(400);
    expect((bad.json() as Answer).error).toMatchObject({ param: 'options.rollout', message: expect.stringMatching(/expected rollout "quantiles" or "median"/) });
  });
});
