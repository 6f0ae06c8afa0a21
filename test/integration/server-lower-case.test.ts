import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inferenceService } from '../../src/manifest/inference-service.js';
import { writeTokenClassifierRepo } from '../../src/onnx/model-repo.js';
import { CONLL_LABELS, nerFixtureVocab } from '../../src/onnx/ner-fixture-vocab.js';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve } from '../../src/server/serve.js';
import { http } from './server-http.js';

// A cased model (tokenizer_config do_lower_case false) that tags `Paris` B-LOC and `paris` O.
let root: string;
let repo: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-lc-'));
  repo = join(root, 'cased');
  const vocab = nerFixtureVocab(false);
  const n = CONLL_LABELS.length;
  const table = new Float32Array(vocab.length * n);
  vocab.forEach((token, id) => {
    table[id * n + CONLL_LABELS.indexOf(token === 'Paris' ? 'B-LOC' : 'O')] = 10;
  });
  await writeTokenClassifierRepo(repo, { vocab, lowercase: false, model: { layers: 0, labelTable: table } });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('served token classification follows KServe lower-casing', () => {
  it('lower-cases unless --disable_lower_case, even for a cased model, as the reference runtime does', async () => {
    const lower = inferenceService({ name: 'lower', modelId: repo, modelName: 'ner' });
    const cased = inferenceService({ name: 'cased', modelId: repo, modelName: 'ner', disableLowerCase: true });
    const server = await serve([lower.service, cased.service], { port: 0, loaders: defaultLoaders({ cacheDir: join(root, 'cache') }) });
    try {
      expect((await server.loaded()).map((s) => s.ready)).toEqual([true, true]);
      const ask = async (host: string) => {
        const r = await http(server.url, '/v1/models/ner:predict', { body: { instances: ['Paris'] }, headers: { host } });
        expect(r.status).toBe(200);
        return r.json();
      };
      // [CLS] paris [SEP] → O everywhere; [CLS] Paris [SEP] → B-LOC (7) on the word
      expect(await ask('lower.default.example.com')).toEqual({ predictions: [[[0, 0, 0]]] });
      expect(await ask('cased.default.example.com')).toEqual({ predictions: [[[0, 7, 0]]] });
    } finally {
      await server.close();
    }
  });
});
