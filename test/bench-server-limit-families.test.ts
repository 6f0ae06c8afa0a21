import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLoaders } from '../src/server/default-loaders.js';
import { serve } from '../src/server/serve.js';
import { loadTextTokenizer } from '../src/runtime/token-classification/load-text-tokenizer.js';
import { findTokenClassFiles, readJsonFile, TokenClassConfigSchema } from '../src/runtime/token-classification/model-files.js';
import { cachedFamilyCheckpoint, parseFamilies, SERVED_FAMILIES, tokenizerIds } from '../bench/lib/family-checkpoints.js';
import { manifest } from '../bench/server-limit.js';

// Writing a 2-layer base-width checkpoint (~150 MB), building its graph and loading it takes seconds on a shared box.
const FAMILY_MS = 180_000;
const CONFORMANCE = join(process.cwd(), '../shared/conformance');
const TEXT = 'george washington lived near the river in virginia';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-family-limit-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('parseFamilies (server-limit --family)', () => {
  it('takes comma lists and repeats, in order, once each, and names the known families for an unknown one', () => {
    expect(parseFamilies(['roberta,xlm-r', 'bert', 'roberta'])).toEqual(['roberta', 'xlm-r', 'bert']);
    expect(parseFamilies([])).toEqual([]);
    expect(() => parseFamilies(['bert,gpt2'])).toThrow(/gpt2: not one of bert, distilbert, roberta, xlm-r, deberta-v3, electra/);
  });
});

describe('cachedFamilyCheckpoint served as a user serves it (quick: 2 layers, base width)', () => {
  it.each(SERVED_FAMILIES)('%s: the folder (safetensors, no ONNX) is served from --model_id and answers a V1 request per token', async (family) => {
    const ck = cachedFamilyCheckpoint(family, { layers: 2, root: join(root, 'checkpoints'), conformance: CONFORMANCE });
    expect((await readdir(ck.dir)).sort()).toEqual(expect.arrayContaining(['config.json', 'model.safetensors', 'tokenizer.json']));
    expect((await readdir(ck.dir)).some((f) => f.endsWith('.onnx') || f === 'onnx')).toBe(false);
    expect(ck.vocab).toBe(tokenizerIds(join(ck.dir, 'tokenizer.json')));
    const files = await findTokenClassFiles(ck.dir, {}, { graphPath: 'unused' });
    const config = await readJsonFile(files.config, TokenClassConfigSchema);
    expect(config.vocab_size).toBe(ck.vocab);
    const tokenizer = await loadTextTokenizer(files, config, { disableLowerCase: false });
    const [encoded] = await tokenizer.encode([TEXT], false);
    const server = await serve([manifest(ck.dir, 'fp32', 'v1')], { port: 0, loaders: defaultLoaders({ cacheDir: join(root, 'cache') }), inference: { threads: 1 } });
    try {
      const [state] = await server.loaded();
      expect(state.ready, state.reason).toBe(true);
      const r = await fetch(`${server.url}/v1/models/bert:predict`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ instances: [TEXT] }) });
      expect(r.status).toBe(200);
      // KServe's V1 token classification: per text `[[class id per token]]`, specials included.
      const { predictions } = (await r.json()) as { predictions: number[][][] };
      expect(predictions).toHaveLength(1);
      expect(predictions[0]).toHaveLength(1);
      expect(predictions[0][0]).toHaveLength(encoded.ids.length);
      expect(predictions[0][0].every((c) => Number.isInteger(c) && c >= 0 && c < 9)).toBe(true);
    } finally {
      await server.close();
    }
    // The graph was built from the checkpoint into the server's cache (the folder has none).
    expect((await readdir(join(root, 'cache', 'graphs'))).some((d) => !d.includes('incomplete'))).toBe(true);
  }, FAMILY_MS);
});
