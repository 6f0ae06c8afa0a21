import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseContract } from '../../contract/parse.js';
import { V2InferRequestSchema, V2InferResponseSchema, V2ModelMetadataSchema } from '../../contract/v2.js';
import { writeTokenClassifierRepo } from '../../onnx/model-repo.js';
import { nerFixtureVocab } from '../../onnx/ner-fixture-vocab.js';
import { loadTokenClassifier } from './load-token-classifier.js';
import type { TokenClassifier } from './token-classifier.js';

// Random encoder with large weights: every token's label depends on its context, so padding that
// leaked into attention would change the answers.
let root: string;
let classifier: TokenClassifier;
const texts = [
  'My name is Wolfgang and I live in Berlin.',
  'hi',
  '',
  'Angela Merkel met the president of France in Paris yesterday morning, said the news report.',
  'Washington 😀 東京',
];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-tc-'));
  await writeTokenClassifierRepo(join(root, 'random'), {
    vocab: nerFixtureVocab(true),
    model: { layers: 2, hidden: 32, heads: 2, initStd: 0.5, seed: 7 },
  });
  classifier = await loadTokenClassifier(join(root, 'random'), { modelName: 'ner', maxBatchSize: 3 });
});
afterAll(async () => {
  await classifier.dispose();
  await rm(root, { recursive: true, force: true });
});

describe('TokenClassifier', () => {
  it('gives each text of a batch exactly the V1 entry it gets alone (no pad garbage)', async () => {
    const batch = await classifier.predictV1({ instances: texts });
    expect(batch.predictions).toHaveLength(texts.length);
    for (const [i, text] of texts.entries()) {
      const alone = await classifier.predictV1({ instances: [text] });
      expect(batch.predictions[i]).toEqual(alone.predictions[0]);
    }
    const lengths = (batch.predictions as number[][][]).map((p) => p[0].length);
    expect(lengths[1]).toBe(3); // [CLS] hi [SEP]
    expect(lengths[2]).toBe(2); // [CLS] [SEP]
    expect(new Set(lengths).size).toBeGreaterThan(2);
    const labels = new Set((batch.predictions as number[][][]).flat(2));
    expect(labels.size).toBeGreaterThan(1); // the random model is not constant
  });

  it('answers V2 with output-0 INT64 [N,1,T], -1 past each text, consistent with V1', async () => {
    const request = parseContract(V2InferRequestSchema, { id: 'req-1', inputs: [{ name: 'text', shape: [texts.length], datatype: 'BYTES', data: texts }] });
    const res = parseContract(V2InferResponseSchema, await classifier.inferV2(request));
    const v1 = (await classifier.predictV1({ instances: texts })).predictions as number[][][];
    const width = Math.max(...v1.map((p) => p[0].length));
    expect(res).toMatchObject({ model_name: 'ner', model_version: null, id: 'req-1', parameters: null });
    const out = res.outputs[0];
    expect(out).toMatchObject({ name: 'output-0', datatype: 'INT64', shape: [texts.length, 1, width], parameters: null });
    v1.forEach((p, i) => {
      const row = out.data.slice(i * width, (i + 1) * width);
      expect(row).toEqual([...p[0], ...Array(width - p[0].length).fill(-1)]);
    });
    const noId = await classifier.inferV2({ inputs: [{ name: 't', shape: [1], datatype: 'BYTES', data: ['x'] }] });
    expect(noId.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('gives the same answers whatever the batch size and ordering', async () => {
    const ref = await classifier.classify(texts, { aggregation: 'none', ignoreLabels: [] });
    const other = await loadTokenClassifier(join(root, 'random'), { modelName: 'ner', maxBatchSize: 1, sortByLength: false });
    try {
      const got = await other.classify(texts, { aggregation: 'none', ignoreLabels: [] });
      got.forEach((t, i) => {
        expect(t.entities.map((e) => [e.start, e.end, 'entity' in e ? e.entity : ''])).toEqual(
          ref[i].entities.map((e) => [e.start, e.end, 'entity' in e ? e.entity : '']),
        );
        t.entities.forEach((e, k) => expect(e.score).toBeCloseTo(ref[i].entities[k].score, 4));
      });
    } finally {
      await other.dispose();
    }
  });

  it('describes itself with V2 metadata and counts what it ran', async () => {
    const meta = parseContract(V2ModelMetadataSchema, await classifier.metadata());
    expect(meta).toMatchObject({
      name: 'ner',
      inputs: [{ name: 'text', datatype: 'BYTES', shape: [-1] }],
      outputs: [{ name: 'output-0', datatype: 'INT64', shape: [-1, 1, -1] }],
    });
    expect(classifier.info.inputNames).toEqual(['input_ids', 'attention_mask', 'token_type_ids']);
    expect(classifier.stats().texts).toBeGreaterThan(0);
  });

  it('is not ready after dispose and says so', async () => {
    const c = await loadTokenClassifier(join(root, 'random'), { modelName: 'tmp' });
    expect(await c.ready()).toBe(true);
    const running = c.predictV1({ instances: texts });
    await c[Symbol.asyncDispose]();
    expect((await running).predictions).toHaveLength(texts.length); // dispose waited for it
    expect(await c.ready()).toBe(false);
    await expect(c.predictV1({ instances: ['x'] })).rejects.toMatchObject({ code: 'model_not_ready' });
    await c.dispose();
  });

  it('fails to load clearly when files are missing', async () => {
    await expect(loadTokenClassifier(join(root, 'nope'), { modelName: 'x' })).rejects.toMatchObject({
      code: 'model_load_failed',
      message: expect.stringContaining('config.json'),
    });
    // A hub id with the hub out of reach (nothing listens on port 9): a network error naming the hub, nothing cached.
    await expect(
      loadTokenClassifier('org/model', { modelName: 'x', hubUrl: 'http://127.0.0.1:9', cacheDir: join(root, 'empty-cache'), retries: 0 }),
    ).rejects.toMatchObject({ code: 'network', message: expect.stringContaining('127.0.0.1:9') });
  });
});
