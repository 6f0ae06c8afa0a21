import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTokenClassifier } from './token-classification/load-token-classifier.js';

let cacheDir: string;
beforeAll(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'inferkit-builtin-'));
});
afterAll(async () => {
  await rm(cacheDir, { recursive: true, force: true });
});

describe('builtinModels through loadTokenClassifier', () => {
  it('resolves inferkit/ner-fixture offline to the generated fixture in the cache, as the server does', { timeout: 60_000 }, async () => {
    // hubUrl points nowhere: a hub request would fail the test.
    const ner = await loadTokenClassifier('inferkit/ner-fixture', { modelName: 'bert', cacheDir, hubUrl: 'http://127.0.0.1:9', offline: true });
    try {
      const [r] = await ner.classify(['My name is Wolfgang and I live in Berlin'], { aggregation: 'simple' });
      expect(r.entities.map((e) => ('entity_group' in e ? e.entity_group : e.entity) + ':' + e.word)).toEqual(['PER:Wolfgang', 'LOC:Berlin']);
      expect((await stat(join(cacheDir, 'builtin', 'ner-fixture', 'onnx', 'model.onnx'))).isFile()).toBe(true);
    } finally {
      await ner.dispose();
    }
    const cased = await loadTokenClassifier('inferkit/ner-fixture', { modelName: 'bert', cacheDir, disableLowerCase: true });
    try {
      const [r] = await cased.classify(['Angela Merkel visited Berlin'], { aggregation: 'simple' });
      expect(r.entities.map((e) => e.word)).toContain('Angela Merkel');
      expect((await stat(join(cacheDir, 'builtin', 'ner-fixture-cased', 'onnx', 'model.onnx'))).isFile()).toBe(true);
    } finally {
      await cased.dispose();
    }
  });
});
