import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderGet } from '../../src/cli/get.js';
import { listInferenceServices } from '../../src/client/list-inference-services.js';
import type { InferenceService } from '../../src/contract/inference-service.js';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve, type RunningServer } from '../../src/server/serve.js';

const created = '2025-01-01T00:00:00Z';
const forecast: InferenceService = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'chronos-forecast', namespace: 'forecasting', creationTimestamp: created },
  spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, args: ['--model_name=chronos-bolt', '--model_id=seasonal-naive', '--task=time_series_forecast'] } } },
};
const broken: InferenceService = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'bert', creationTimestamp: created },
  spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, protocolVersion: 'v2', args: ['--model_name=ner', '--model_id=./no-such-model-folder'] } } },
};

let server: RunningServer;
const now = Date.parse('2025-01-01T03:02:00Z');

beforeAll(async () => {
  server = await serve([forecast, broken], { loaders: defaultLoaders({ offline: true }), port: 0 });
  await server.loaded();
});
afterAll(() => server?.close());

describe('inferkit get', () => {
  it('lists the served InferenceServices with their status', async () => {
    const items = await listInferenceServices({ baseUrl: server.url });
    expect(items.map((i) => [i.metadata.name, i.status?.url])).toEqual([
      ['chronos-forecast', 'http://chronos-forecast.forecasting.example.com'],
      ['bert', 'http://bert.default.example.com'],
    ]);
  });

  it('prints kubectl-style columns: READY True / False, traffic 100 to the latest revision, AGE', async () => {
    const text = await renderGet({ server: server.url, now });
    const [head, ...rows] = text.trimEnd().split('\n');
    expect(head.split(/\s+/)).toEqual(['NAME', 'URL', 'READY', 'PREV', 'LATEST', 'PREVROLLEDOUTREVISION', 'LATESTREADYREVISION', 'AGE']);
    expect(rows[0].split(/\s+/)).toEqual(['chronos-forecast', 'http://chronos-forecast.forecasting.example.com', 'True', '100', 'chronos-forecast-predictor-00001', '3h2m']);
    expect(rows[1].split(/\s+/)).toEqual(['bert', 'http://bert.default.example.com', 'False', '100', 'bert-predictor-00001', '3h2m']);
    // columns line up under their headers
    expect(rows[0].indexOf('True')).toBe(head.indexOf('READY'));
    expect(rows[0].indexOf('3h2m')).toBe(head.indexOf('AGE'));
  });

  it('-o wide adds the model name, protocol and why a service is not ready', async () => {
    const text = await renderGet({ server: server.url, output: 'wide', now });
    const [head, , bert] = text.trimEnd().split('\n');
    expect(head).toMatch(/AGE\s+MODEL\s+PROTOCOL\s+REASON$/);
    expect(bert).toMatch(/3h2m\s+ner\s+v2\s+ModelLoadFailed: .*no-such-model-folder/);
  });

  it('-o yaml prints the manifests with status filled', async () => {
    const docs = (await renderGet({ server: server.url, output: 'yaml', name: 'chronos-forecast' })).split(/^---$/m).map((d) => parse(d) as InferenceService);
    expect(docs).toHaveLength(1);
    const [doc] = docs;
    expect(doc.metadata).toEqual({ name: 'chronos-forecast', namespace: 'forecasting', creationTimestamp: created });
    expect(doc.spec).toEqual(forecast.spec);
    expect(doc.status?.url).toBe('http://chronos-forecast.forecasting.example.com');
    expect(doc.status?.conditions?.map((c) => [c.type, c.status])).toEqual([['PredictorReady', 'True'], ['Ready', 'True']]);
    expect(doc.status?.components?.predictor).toMatchObject({
      latestReadyRevision: 'chronos-forecast-predictor-00001',
      traffic: [{ revisionName: 'chronos-forecast-predictor-00001', percent: 100, latestRevision: true }],
    });
  });

  it('names a service that is not served, and a server that is not there', async () => {
    await expect(renderGet({ server: server.url, name: 'nope' })).rejects.toThrow(/inferenceservice "nope" is not served/);
    await expect(renderGet({ server: 'http://127.0.0.1:1' })).rejects.toMatchObject({ code: 'network' });
  });
});
