import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InferenceService } from '../../src/contract/inference-service.js';
import { TINY_BOLT_LIKE, writeChronosFixtureRepo } from '../../src/onnx/model-repo.js';
import type { ForecastModel } from '../../src/runtime/forecast/forecast-model.js';
import { loadChronosBolt } from '../../src/runtime/forecast/load-chronos-bolt.js';
import { defaultLoaders, servedForecastModel } from '../../src/server/default-loaders.js';
import { REPLICAS_ANNOTATION } from '../../src/manifest/serving-annotations.js';
import type { ModelLoaders } from '../../src/server/model-loader.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { http, isvc, until } from './server-http.js';

let root: string;
let ruleDir: string;
let boltDir: string;
const servers: RunningServer[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-srv-replicas-'));
  ruleDir = join(root, 'rule');
  boltDir = join(root, 'bolt');
  await writeChronosFixtureRepo(ruleDir, { contextLength: 64, predictionLength: 8, patchSize: 4, quantiles: [0.1, 0.5, 0.9], trend: 0.5 });
  await writeChronosFixtureRepo(boltDir, TINY_BOLT_LIKE);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await rm(root, { recursive: true, force: true });
});

async function start(manifests: InferenceService[], options: Parameters<typeof serve>[1]): Promise<RunningServer> {
  const server = await serve(manifests, { port: 0, ...options });
  servers.push(server);
  await server.loaded();
  return server;
}

function bolt(name: string, dir: string, annotations?: Record<string, string>): InferenceService {
  const m = isvc(name, { args: [`--model_id=${dir}`, '--task=time_series_forecast'] });
  return annotations ? { ...m, metadata: { ...m.metadata, annotations } } : m;
}

/** One request of `n` series of different lengths. */
const body = (model: string, n: number, horizon: number) => ({
  model,
  inputs: Array.from({ length: n }, (_, i) => ({
    type: 'univariate_time_series',
    name: `s${i}`,
    series: Array.from({ length: 5 + ((i * 11) % 50) }, (_, t) => Math.round((Math.sin(t / 3 + i) * 10 + i) * 100) / 100),
    frequency: 'D',
  })),
  options: { horizon, quantiles: [0.1, 0.5, 0.9] },
});

type Answer = { status: string; outputs: Array<{ content: Array<{ mean_forecast: number[]; quantiles: Record<string, number[]> }> }> };
const forecasts = (a: Answer) => a.outputs.map((o) => o.content.map((c) => ({ mean: c.mean_forecast, q: c.quantiles })));

describe('serve: Chronos-Bolt on session replicas', () => {
  it('answers with replicas what one session answers, within the native horizon and rolled out beyond it', async () => {
    const manifests = [bolt('rule', ruleDir), bolt('bolt', boltDir)];
    const replicas = await start(manifests, { loaders: defaultLoaders(), inference: { threads: 4, replicas: 4 } });
    const single = await start(manifests, { loaders: defaultLoaders(), inference: { threads: 4, replicas: 1 } });
    expect(replicas.models().map((m) => [m.ready, m.inference?.replicaThreads])).toEqual([[true, [1, 1]], [true, [1, 1]]]);
    expect(single.models().map((m) => m.inference?.replicaThreads)).toEqual([[2], [2]]);
    for (const [model, horizon] of [['rule', 8], ['rule', 20], ['bolt', 4], ['bolt', 10]] as const) {
      const [a, b] = await Promise.all([replicas, single].map((s) => http(s.url, '/v1/timeseries/forecast', { body: body(model, 9, horizon) })));
      expect([a.status, b.status]).toEqual([200, 200]);
      const [fa, fb] = [forecasts(a.json() as Answer), forecasts(b.json() as Answer)];
      // The runs' compositions differ (one session: one run of 9; replicas: one per replica), and so does each
      // row's left padding: the rule graph's sums round differently past the 6th digit.
      const digits = model === 'rule' ? 5 : 3;
      fa.forEach((o, i) => o.forEach((c, k) => c.mean.forEach((x, h) => expect(x).toBeCloseTo(fb[i][k].mean[h], digits))));
      if (model === 'rule') {
        fa.forEach((o, i) => o.forEach((c, k) => Object.entries(c.q).forEach(([q, v]) => v.forEach((x, h) => expect(x).toBeCloseTo(fb[i][k].q[q][h], 5)))));
      }
    }
  });

  it('cuts a merged call into one run per replica (runs and merged calls observed)', async () => {
    const runs: number[] = [];
    const calls: number[] = [];
    const loaders: ModelLoaders = {
      time_series_forecast: async ({ config, inference }) => {
        const model = await loadChronosBolt(ruleDir, { name: config.modelName, session: { worker: true, replicaThreads: inference?.replicaThreads ?? [1] }, onRun: (rows) => runs.push(rows) });
        // The model's calls below the server's merging wrapper.
        const counted: ForecastModel = {
          name: model.name,
          nativeHorizon: model.nativeHorizon,
          quantiles: model.quantiles,
          sharesRunQueue: model.sharesRunQueue,
          predict: (batch, horizon, opts) => (calls.push(batch.length), model.predict(batch, horizon, opts)),
          dispose: () => model.dispose(),
        };
        return servedForecastModel(counted);
      },
    };
    const server = await start([bolt('rule', ruleDir)], { loaders, inference: { threads: 2, replicas: 2 } });
    expect(server.models()[0].inference?.replicaThreads).toEqual([1, 1]);
    const res = await http(server.url, '/v1/timeseries/forecast', { body: body('rule', 8, 8) });
    expect(res.status).toBe(200);
    expect(calls).toEqual([8]);
    expect(runs).toEqual([4, 4]);
  });

  it('hands requests over to a model with a run queue as merged calls as they come, beside a running one (sharesRunQueue)', async () => {
    const calls: number[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const loaders: ModelLoaders = {
      time_series_forecast: async ({ config }) => {
        const model = await loadChronosBolt(ruleDir, { name: config.modelName, session: { worker: true } });
        // The real model (one session), its first call held until the test releases it.
        const held: ForecastModel = {
          name: model.name,
          nativeHorizon: model.nativeHorizon,
          quantiles: model.quantiles,
          sharesRunQueue: model.sharesRunQueue,
          predict: async (batch, horizon, opts) => {
            calls.push(batch.length);
            if (calls.length === 1) {
              await gate;
            }
            return model.predict(batch, horizon, opts);
          },
          dispose: () => model.dispose(),
        };
        return servedForecastModel(held);
      },
    };
    const server = await start([bolt('rule', ruleDir)], { loaders, inference: { threads: 2, replicas: 1 } });
    const post = (n: number) => http(server.url, '/v1/timeseries/forecast', { body: body('rule', n, 8) });
    const first = post(1);
    await until(() => calls.length === 1);
    // Not held back by the running call: each request reaches the model as its own call at once.
    const second = post(2);
    await until(() => calls.length === 2);
    const third = post(3);
    await until(() => calls.length === 3);
    expect(calls).toEqual([1, 2, 3]);
    // The later requests are answered while the first call is still held.
    expect((await Promise.all([second, third])).map((r) => r.status)).toEqual([200, 200]);
    release();
    expect((await first).status).toBe(200);
  });

  it('annotation serving.inferkit.dev/replicas sets one service\'s replicas; a bad value fails that service, naming the annotation', async () => {
    const manifests = [bolt('auto', ruleDir), bolt('two', ruleDir, { [REPLICAS_ANNOTATION]: '2' }), bolt('bad', ruleDir, { [REPLICAS_ANNOTATION]: 'two' })];
    const server = await start(manifests, { loaders: defaultLoaders(), inference: { threads: 4 } });
    type Listed = { services: Array<{ name: string; ready: boolean; reason?: string; inference?: { replicaThreads?: number[] } }> };
    const { services } = (await http(server.url, '/inferkit/v1/services')).json() as Listed;
    const byName = new Map(services.map((s) => [s.name, s]));
    expect(byName.get('auto')?.inference?.replicaThreads).toEqual([2]); // Chronos-Bolt: one session unless asked
    expect(byName.get('two')?.inference?.replicaThreads).toEqual([1, 1]);
    expect(byName.get('bad')?.ready).toBe(false);
    expect(byName.get('bad')?.reason).toMatch(/annotation serving\.inferkit\.dev\/replicas: expected a positive integer.*got "two"/);
    const ok = await http(server.url, '/v1/timeseries/forecast', { body: body('two', 3, 4) });
    expect(ok.status).toBe(200);
  });
});
