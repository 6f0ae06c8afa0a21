import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inferenceService } from '../../src/manifest/inference-service.js';
import { writeNerFixtureRepo } from '../../src/onnx/model-repo.js';
import { loadTokenClassifier } from '../../src/runtime/token-classification/load-token-classifier.js';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve } from '../../src/server/serve.js';
import { http } from './server-http.js';

let root: string;
let repo: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-scores-'));
  repo = join(root, 'ner');
  await writeNerFixtureRepo(repo);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('served --return_probabilities', () => {
  it('answers V1 with per-token probabilities under concurrent (batched) load, V2 still with class ids', async () => {
    const texts = ['John is in Paris', 'Angela Merkel visited Berlin', 'hello'];
    const local = await loadTokenClassifier(repo, { modelName: 'ner', returnProbabilities: true });
    const expected = await Promise.all(texts.map(async (t) => (await local.predictV1({ instances: [t] })).predictions[0]));
    await local.dispose();

    const v1 = inferenceService({ name: 'scores', modelId: repo, modelName: 'ner', args: ['--return_probabilities'] });
    const v2 = inferenceService({ name: 'scores-v2', modelId: repo, modelName: 'ner', protocol: 'v2', args: ['--return_probabilities'] });
    const server = await serve([v1.service, v2.service], { port: 0, maxWaitMs: 20, loaders: defaultLoaders({ cacheDir: join(root, 'cache') }) });
    try {
      expect((await server.loaded()).map((s) => s.ready)).toEqual([true, true]);
      const answers = await Promise.all(
        texts.map((t) => http(server.url, '/v1/models/ner:predict', { body: { instances: [t] }, headers: { host: 'scores.default.example.com' } })),
      );
      answers.forEach((a, i) => {
        expect(a.status).toBe(200);
        expect((a.json() as { predictions: unknown[] }).predictions).toEqual([expected[i]]);
      });
      // "John" → B-PER (3) with probability ≈ 1, rounded to 4 decimals like KServe
      const john = (expected[0] as Array<Record<string, number>>)[1];
      expect(john['3']).toBeGreaterThan(0.99);
      const b = await http(server.url, '/v2/models/ner/infer', {
        body: { inputs: [{ name: 'input-0', shape: [1], datatype: 'BYTES', data: ['John is in Paris'] }] },
        headers: { host: 'scores-v2.default.example.com' },
      });
      expect(b.json()).toMatchObject({ outputs: [{ name: 'output-0', datatype: 'INT64', shape: [1, 1, 6], data: [0, 3, 0, 0, 7, 0] }] });
    } finally {
      await server.close();
    }
  });
});
