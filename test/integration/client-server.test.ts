import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { remote } from '../../src/client/remote.js';
import type { InferenceService } from '../../src/contract/inference-service.js';
import type { Forecaster, Predictor } from '../../src/contract/predictor.js';
import { HttpError, isInferkitError } from '../../src/errors.js';
import { writeNerFixtureRepo } from '../../src/onnx/model-repo.js';
import { localForecaster } from '../../src/protocol/forecast/local-forecaster.js';
import { seasonalNaive } from '../../src/runtime/forecast/seasonal-naive.js';
import { loadTokenClassifier } from '../../src/runtime/token-classification/load-token-classifier.js';
import type { ModelLoaders } from '../../src/server/model-loader.js';
import { serve, type RunningServer } from '../../src/server/serve.js';

// ids of the NER fixture (dslim/bert-base-NER order): O=0, B-PER=3, B-LOC=7.
const O = 0, B_PER = 3, B_LOC = 7;
const WOLFGANG = [O, O, O, O, B_PER, O, O, O, O, B_LOC, O]; // [CLS] my name is wolfgang and i live in berlin [SEP]

function isvc(name: string, args: string[], extra: { protocolVersion?: 'v2'; namespace?: string } = {}): InferenceService {
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name, ...(extra.namespace ? { namespace: extra.namespace } : {}) },
    spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, args, ...(extra.protocolVersion ? { protocolVersion: extra.protocolVersion } : {}) } } },
  };
}

const v1 = isvc('bert-v1', ['--model_name=bert', '--model_id=inferkit/ner-fixture']);
const v2 = isvc('bert-v2', ['--model_name=bert', '--model_id=inferkit/ner-fixture'], { protocolVersion: 'v2' });
const fc = isvc('chronos', ['--model_name=chronos-bolt', '--model_id=baseline/seasonal-naive', '--task=time_series_forecast'], { namespace: 'forecasting' });
const slow = isvc('slow', ['--model_name=slow', '--model_id=inferkit/ner-fixture']);
const broken = isvc('broken', ['--model_name=broken', '--model_id=inferkit/ner-fixture']);

let dir: string;
let server: RunningServer;
let openGate: () => void = () => undefined;
const gate = new Promise<void>((r) => (openGate = r));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inferkit-client-'));
  await writeNerFixtureRepo(join(dir, 'ner'));
  const loaders: ModelLoaders = {
    token_classification: async ({ config }) => {
      if (config.modelName === 'broken') {
        throw new Error('weights are corrupt (test)');
      }
      if (config.modelName === 'slow') {
        await gate;
      }
      const predictor = await loadTokenClassifier(join(dir, 'ner'), { modelName: config.modelName });
      return { task: 'token_classification', predictor, dispose: () => predictor.dispose() };
    },
    time_series_forecast: async ({ config }) => ({ task: 'time_series_forecast', forecaster: localForecaster(seasonalNaive({ name: config.modelName })) }),
  };
  server = await serve([v1, v2, fc, slow, broken], { loaders, port: 0 });
  for (let i = 0; i < 400 && server.models().some((m) => m.phase === 'loading' && m.name !== 'slow'); i++) {
    await new Promise((r) => setTimeout(r, 25));
  }
  expect(server.models().filter((s) => s.ready).map((s) => s.service)).toEqual(['bert-v1', 'bert-v2', 'chronos']);
}, 60_000);

afterAll(async () => {
  openGate();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('remote against inferkit serve', () => {
  it('predictV1 through the ingress with the Host of the V1 service', async () => {
    const m = remote({ ingressHost: '127.0.0.1', ingressPort: server.port }, { isvc: v1 });
    expectTypeOf(m).toExtend<Predictor & Forecaster>();
    expect([m.name, m.host]).toEqual(['bert', 'bert-v1.default.example.com']);
    const out = await m.predictV1({ instances: ['My name is Wolfgang and I live in Berlin', 'Paris'] });
    expect(out.predictions).toEqual([[WOLFGANG], [[O, B_LOC, O]]]);
  });

  it('inferV2 with the Host of the V2 service: [N, 1, T] INT64, -1 past each text', async () => {
    const m = remote({ baseUrl: server.url }, { isvc: v2 });
    const out = await m.inferV2({ id: 'req-1', inputs: [{ name: 'input-0', shape: [2], datatype: 'BYTES', data: ['My name is Wolfgang and I live in Berlin', 'Paris'] }] });
    expect(out).toMatchObject({ model_name: 'bert', id: 'req-1' });
    expect(out.outputs[0]).toMatchObject({ name: 'output-0', shape: [2, 1, 11], datatype: 'INT64' });
    expect(out.outputs[0].data).toEqual([...WOLFGANG, O, B_LOC, O, ...Array(8).fill(-1)]);
  });

  it('routes by Host: the same model name reaches different services', async () => {
    // Each Host reaches its own service; like KServe, each answers both V1 and V2.
    await expect(remote({ baseUrl: server.url }, { isvc: v2 }).predictV1({ instances: ['a'] })).resolves.toMatchObject({ predictions: [expect.any(Array)] });
    await expect(remote({ baseUrl: server.url }, { isvc: v1 }).inferV2({ inputs: [{ name: 'i', shape: [1], datatype: 'BYTES', data: ['a'] }] })).resolves.toMatchObject({ model_name: 'bert' });
    await expect(remote({ baseUrl: server.url }, { host: 'bert-v2.default.example.com', modelName: 'nope' }).predictV1({ instances: ['a'] })).rejects.toMatchObject({ status: 404 });
    const unknown = await remote({ baseUrl: server.url }, { host: 'nope.default.example.com', modelName: 'bert' }).predictV1({ instances: ['a'] }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(HttpError);
    expect((unknown as HttpError).message).toMatch(/→ 404: no InferenceService is served at host "nope\.default\.example\.com"/);
    expect(await remote({ baseUrl: server.url }, { isvc: v1 }).listModels()).toEqual(['bert']);
  });

  it('forecast: univariate + multivariate, quantiles and the next start_timestamp', async () => {
    const m = remote({ baseUrl: server.url }, { isvc: fc });
    expect(m.host).toBe('chronos.forecasting.example.com');
    const out = await m.forecast({
      model: 'chronos-bolt',
      inputs: [
        { type: 'univariate_time_series', name: 'u', series: [1, 2, 3, 4, 5, 6], frequency: 'D', start_timestamp: '2024-01-01T00:00:00Z' },
        { type: 'multivariate_time_series', name: 'm', series: [[1, 10], [2, 20], [3, 30]], frequency: 'month', start_timestamp: '2024-01-31' },
      ],
      options: { horizon: 3, quantiles: [0.1, 0.9] },
      metadata: { trace: 'x' },
    });
    expect(out.status).toBe('completed');
    expect(out.outputs.map((o) => o.status)).toEqual(['completed', 'completed']);
    const [u, mv] = out.outputs.map((o) => o.content[0]);
    expect(u.start_timestamp).toMatch(/^2024-01-07/);
    expect(Object.keys(u.quantiles ?? {}).sort()).toEqual(['0.1', '0.9']);
    expect(u.mean_forecast).toHaveLength(3);
    expect(mv.type).toBe('multivariate_time_series');
    expect((mv.mean_forecast as number[][])[0]).toHaveLength(2);
  });

  it('ready, metadata, serverMetadata and live', async () => {
    const m = remote({ baseUrl: server.url }, { isvc: v1 });
    expect(await m.ready()).toBe(true);
    const meta = await m.metadata();
    expect(meta.name).toBe('bert');
    expect(meta.inputs.length).toBeGreaterThan(0);
    expect((await m.serverMetadata()).name).toBe('inferkit');
    expect(await m.live()).toBe(true);
    expect(await remote({ baseUrl: 'http://127.0.0.1:1' }, { retries: 0 }).live()).toBe(false);
  });

  it('typed errors: 400 with the server message, 404 unknown model, forecast 400 body kept', async () => {
    const bad = await remote({ baseUrl: server.url }, { isvc: v1 }).predictV1({ instances: [] }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(HttpError);
    expect([(bad as HttpError).status, (bad as HttpError).code]).toEqual([400, 'invalid_request']);
    expect((bad as HttpError).message).toMatch(/instances/);
    expect((bad as HttpError).body).toEqual({ error: expect.stringMatching(/instances/) });

    const missing = await remote({ baseUrl: server.url }, { modelName: 'nobody' }).metadata().catch((e: unknown) => e);
    expect([(missing as HttpError).status, (missing as HttpError).code]).toEqual([404, 'model_not_found']);

    const f = await remote({ baseUrl: server.url }, { isvc: fc })
      .forecast({ model: 'chronos-bolt', inputs: [{ type: 'univariate_time_series', name: 'u', series: [1, 2], frequency: 'D' }], options: { horizon: 0 } })
      .catch((e: unknown) => e);
    expect((f as HttpError).status).toBe(400);
    expect((f as HttpError).body).toMatchObject({ status: 'error', error: { param: 'options.horizon' } });
    expect((f as HttpError).message).toMatch(/horizon/);
  });

  it('retries 503 while a model loads, then succeeds', async () => {
    const m = remote({ baseUrl: server.url }, { isvc: slow, retries: 20, retryDelayMs: 50, maxRetryDelayMs: 100 });
    expect(await m.ready()).toBe(false);
    setTimeout(openGate, 200);
    const out = await m.predictV1({ instances: ['Paris'] });
    expect(out.predictions).toEqual([[[O, B_LOC, O]]]);
  });

  it('a model that failed to load: ready() false, calls end in 503 with the reason', async () => {
    const m = remote({ baseUrl: server.url }, { isvc: broken, retries: 1, retryDelayMs: 10 });
    expect(await m.ready()).toBe(false);
    const err = await m.predictV1({ instances: ['a'] }).catch((e: unknown) => e);
    expect(isInferkitError(err) && err.code).toBe('model_not_ready');
    expect((err as HttpError).message).toMatch(/weights are corrupt/);
  });
});
