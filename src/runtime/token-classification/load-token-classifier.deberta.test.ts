import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockHub, writeRepoDir, type MockHub } from '../../../test/fixtures/mock-hub.js';
import { piecesOfUnigram, writeSentencePieceModel } from '../../../test/fixtures/sentencepiece-writer.js';
import { loadTokenClassifier } from './load-token-classifier.js';

// A DeBERTa-v3 repo on the hub with no ONNX file (the kserve-hf-deberta-v3 model folder): fp32 and, behind the
// same switch as model_quantized.onnx, int8, both built from model.safetensors and cached.
const DIR = join(process.cwd(), '../shared/conformance/kserve-hf-deberta-v3');
const recorded = JSON.parse(readFileSync(join(DIR, 'logits.json'), 'utf8')) as { singles: Array<{ text: string; logits: number[][] }> };
let root: string;
let hub: MockHub;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-deberta-load-'));
  // The same model as microsoft/deberta-v3-base publishes its tokenizer: spm.model, no tokenizer.json.
  const tokenizerJson = JSON.parse(readFileSync(join(DIR, 'model', 'tokenizer.json'), 'utf8')) as Parameters<typeof piecesOfUnigram>[0];
  const spmRepo = writeRepoDir(join(root, 'spm-repo'), {
    'config.json': readFileSync(join(DIR, 'model', 'config.json'), 'utf8'),
    'tokenizer_config.json': readFileSync(join(DIR, 'model', 'tokenizer_config.json'), 'utf8'),
    'model.safetensors': readFileSync(join(DIR, 'model', 'model.safetensors')),
    'spm.model': writeSentencePieceModel({ pieces: piecesOfUnigram(tokenizerJson, ['[MASK]']), unkId: tokenizerJson.model.unk_id }),
  });
  hub = await startMockHub({ repos: { 'org/deberta-ner': { dir: join(DIR, 'model') }, 'org/deberta-spm': { dir: spmRepo } } });
});
afterAll(async () => {
  await hub.close();
  await rm(root, { recursive: true, force: true });
});

async function worstLogitDifference(quantized: boolean, repo = 'org/deberta-ner'): Promise<{ worst: number; info: unknown; files: string[] }> {
  const files: string[] = [];
  const onProgress = (e: { type: string; file: string }): void => void (e.type === 'file-done' && files.push(e.file));
  const c = await loadTokenClassifier(repo, { cacheDir: join(root, 'cache'), hubUrl: hub.url, onProgress, quantized, returnRawLogits: true, disableLowerCase: false });
  try {
    let worst = 0;
    for (const s of recorded.singles.slice(0, 4)) {
      const [rows] = (await c.predictV1({ instances: [s.text] })).predictions as Array<Array<Record<string, number>>>;
      s.logits.forEach((row, t) => row.forEach((v, k) => (worst = Math.max(worst, Math.abs(rows[t][String(k)] - v)))));
    }
    return { worst, info: c.info, files };
  } finally {
    await c.dispose();
  }
}

describe('loadTokenClassifier on a DeBERTa-v3 hub repo without ONNX', () => {
  it('downloads config, weights and tokenizer only, builds the fp32 graph: transformers\' logits within 1e-4', async () => {
    const { worst, info, files } = await worstLogitDifference(false);
    expect(info).toMatchObject({ graph: { from: 'checkpoint', file: 'model.safetensors', family: 'deberta-v2', variant: 'fp32' }, quantized: false });
    expect(files).toContain('model.safetensors');
    expect(files.filter((f) => f.endsWith('.onnx'))).toEqual([]);
    expect(worst).toBeLessThan(1e-4);
  });

  it('a repo whose tokenizer is only spm.model (as microsoft/deberta-v3-base): fetches it, not a tokenizer.json, and gives transformers\' logits', async () => {
    const { worst, info, files } = await worstLogitDifference(false, 'org/deberta-spm');
    expect(info).toMatchObject({ graph: { from: 'checkpoint', family: 'deberta-v2' } });
    expect(files).toContain('spm.model');
    expect(files).not.toContain('tokenizer.json');
    expect(worst).toBeLessThan(1e-4);
  });

  it('builds int8 MatMul weights with quantized (no model_quantized.onnx): within 0.2 of the fp32 logits', async () => {
    const { worst, info } = await worstLogitDifference(true);
    expect(info).toMatchObject({ graph: { from: 'checkpoint', family: 'deberta-v2', variant: 'int8' }, quantized: true });
    expect(worst).toBeGreaterThan(1e-4); // it is another graph
    expect(worst).toBeLessThan(0.2);
  });
});
