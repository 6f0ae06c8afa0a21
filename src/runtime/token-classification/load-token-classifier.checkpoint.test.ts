import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editJson } from '../../../test/fixtures/edit-json.js';
import { writeSafetensorsFile } from '../../../test/fixtures/safetensors-file.js';
import { startMockHub, type MockHub } from '../../../test/fixtures/mock-hub.js';
import { toVocabMergesFolder } from '../../../test/fixtures/roberta-vocab-merges.js';
import { toXlmrSentencePieceFolder } from '../../../test/fixtures/xlmr-sentencepiece.js';
import { openCheckpoint } from '../../checkpoint/safetensors.js';
import { loadTokenClassifier, type TokenClassifierOptions } from './load-token-classifier.js';

// Token classifiers whose graph inferkit builds from config.json + model.safetensors: which graph a repo with
// both gets, the int8 build, what is fetched from a hub, and the named errors.
const SETS = join(process.cwd(), '../shared/conformance');
let root: string;
let hub: MockHub;
let xlmrSpm: ReturnType<typeof toXlmrSentencePieceFolder>;

/** A copy of a conformance model folder (with `onnx/` only when `withOnnx`), edited by `edit`. */
function copyModel(set: string, name: string, withOnnx: boolean, edit?: (dir: string) => void): string {
  const dir = join(root, name);
  cpSync(join(SETS, set, 'model'), dir, { recursive: true, filter: (src) => withOnnx || !src.split(/[\\/]/).includes('onnx') });
  edit?.(dir);
  return dir;
}

const TEXTS = ['My name is Wolfgang and I live in Berlin', 'Die Straße führt nach Zürich 🙂', 'Москва — столица России.'];

async function rawLogits(dir: string, options: TokenClassifierOptions): Promise<{ logits: number[][][]; info: Record<string, unknown> }> {
  const c = await loadTokenClassifier(dir, { returnRawLogits: true, cacheDir: join(root, 'cache'), ...options });
  try {
    const answer = await c.predictV1({ instances: TEXTS });
    const logits = (answer.predictions as Array<Array<Record<string, number>>>).map((tokens) => tokens.map((t) => Object.values(t)));
    return { logits, info: { ...c.info } };
  } finally {
    await c.dispose();
  }
}

/** Writes `tensors` as a safetensors file (`dtype` F32, or BF16 = the upper half of each float32). */
function writeSafetensors(path: string, tensors: Array<{ name: string; shape: number[]; data: Float32Array }>, dtype: 'F32' | 'BF16'): void {
  const bytes = (data: Float32Array): Uint8Array =>
    dtype === 'F32' ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(Uint16Array.from(new Uint32Array(Float32Array.from(data).buffer), (u) => u >>> 16).buffer);
  writeSafetensorsFile(path, tensors.map((t) => ({ name: t.name, dtype, shape: t.shape, bytes: bytes(t.data) })));
}

/** The BERT conformance model re-saved as two shards with an index (`dtype` each), tokenizer and config alongside. */
async function resaved(name: string, dtype: 'F32' | 'BF16', shards: 1 | 2): Promise<string> {
  const dir = copyModel('kserve-hf', name, false);
  const ck = await openCheckpoint(dir);
  const tensors = ck.names().map((n) => ({ name: n, shape: ck.info(n).shape, data: ck.float32(n) }));
  ck.close();
  rmSync(join(dir, 'model.safetensors'));
  if (shards === 1) {
    writeSafetensors(join(dir, 'model.safetensors'), tensors, dtype);
    return dir;
  }
  const half = Math.ceil(tensors.length / 2);
  const files = ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'];
  writeSafetensors(join(dir, files[0]), tensors.slice(0, half), dtype);
  writeSafetensors(join(dir, files[1]), tensors.slice(half), dtype);
  const weightMap = Object.fromEntries(tensors.map((t, i) => [t.name, files[i < half ? 0 : 1]]));
  writeFileSync(join(dir, 'model.safetensors.index.json'), JSON.stringify({ metadata: {}, weight_map: weightMap }));
  return dir;
}

/**
 * The BERT conformance model as a repo with vocab.txt (no tokenizer.json) and an added_tokens.json that adds `[ENT]` at
 * id 30522; its word embedding gains that row, a copy of `berlin`'s, so `[ENT]` reads as `berlin` does.
 */
async function withAddedToken(name: string): Promise<string> {
  const dir = copyModel('kserve-hf', name, false);
  rmSync(join(dir, 'tokenizer.json'));
  const ck = await openCheckpoint(dir);
  const berlin = readFileSync(join(dir, 'vocab.txt'), 'utf8').split('\n').indexOf('berlin');
  const tensors = ck.names().map((n) => {
    const { shape } = ck.info(n);
    const data = ck.float32(n);
    if (n !== 'bert.embeddings.word_embeddings.weight') {
      return { name: n, shape, data };
    }
    const grown = new Float32Array(data.length + shape[1]);
    grown.set(data);
    grown.set(data.subarray(berlin * shape[1], (berlin + 1) * shape[1]), data.length);
    return { name: n, shape: [shape[0] + 1, shape[1]], data: grown };
  });
  ck.close();
  writeSafetensors(join(dir, 'model.safetensors'), tensors, 'F32');
  editJson(join(dir, 'config.json'), (c) => void (c.vocab_size = 30523));
  writeFileSync(join(dir, 'added_tokens.json'), JSON.stringify({ '[ENT]': 30522 }));
  return dir;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'inferkit-tcck-'));
  copyModel('kserve-hf', 'bert-both', true);
  copyModel('kserve-hf-xlmr', 'xlmr', false);
  // An XLM-R repo as older fine-tunes publish it: sentencepiece.bpe.model, no tokenizer.json (its embedding rows in that file's ids).
  xlmrSpm = toXlmrSentencePieceFolder(copyModel('kserve-hf-xlmr', 'xlmr-spm', false));
  // RoBERTa repos as older fine-tunes publish them: vocab.json + merges.txt only, or beside a tokenizer.json.
  const robertaBpe = copyModel('kserve-hf-roberta', 'roberta-bpe', false, toVocabMergesFolder);
  const robertaAll = copyModel('kserve-hf-roberta', 'roberta-all', false);
  cpSync(join(robertaBpe, 'vocab.json'), join(robertaAll, 'vocab.json'));
  cpSync(join(robertaBpe, 'merges.txt'), join(robertaAll, 'merges.txt'));
  const bertAdded = await withAddedToken('bert-added');
  hub = await startMockHub({
    repos: { 'org/bert-added': { dir: bertAdded }, 'org/bert-both': { dir: join(root, 'bert-both') }, 'org/xlmr-spm': { dir: join(root, 'xlmr-spm') }, 'org/roberta-bpe': { dir: robertaBpe }, 'org/roberta-all': { dir: robertaAll } },
  });
});
afterAll(async () => {
  await hub.close();
  rmSync(root, { recursive: true, force: true });
});

describe('loadTokenClassifier from a safetensors checkpoint', () => {
  it('keeps the published ONNX graph of a repo with both, and builds from the checkpoint with graphSource: checkpoint — same logits', async () => {
    const dir = join(root, 'bert-both');
    const onnx = await rawLogits(dir, {});
    expect(onnx.info).toMatchObject({ graph: { from: 'onnx', file: 'onnx/model.onnx' }, modelFile: join(dir, 'onnx', 'model.onnx') });
    const built = await rawLogits(dir, { graphSource: 'checkpoint' });
    expect(built.info).toMatchObject({ graph: { from: 'checkpoint', file: 'model.safetensors', family: 'bert', variant: 'fp32' }, quantized: false });
    expect(built.info.modelFile).toMatch(/graphs[\\/]bert-fp32-/);
    built.logits.flat(2).forEach((v, i) => expect(Math.abs(v - onnx.logits.flat(2)[i])).toBeLessThan(1e-4));
  });

  it('builds an int8 graph with quantized: true where the repo has no model_quantized.onnx; its logits stay within 0.2 of fp32', async () => {
    const dir = join(root, 'xlmr');
    const fp32 = await rawLogits(dir, {});
    const int8 = await rawLogits(dir, { quantized: true });
    expect(int8.info).toMatchObject({ graph: { from: 'checkpoint', family: 'roberta', variant: 'int8' }, quantized: true });
    expect(int8.info.modelFile).toMatch(/graphs[\\/]roberta-int8-/);
    const a = fp32.logits.flat(2);
    const b = int8.logits.flat(2);
    expect(b).toHaveLength(a.length);
    const worst = Math.max(...a.map((v, i) => Math.abs(v - b[i])));
    expect(worst).toBeGreaterThan(0); // really another graph
    expect(worst).toBeLessThan(0.2);
  });

  it('builds from a sharded checkpoint (index + 2 shards) with the same logits, and from BF16 weights within BF16 rounding', async () => {
    const plain = await rawLogits(copyModel('kserve-hf', 'bert-plain', false), {});
    const sharded = await rawLogits(await resaved('bert-sharded', 'F32', 2), {});
    expect(sharded.info).toMatchObject({ graph: { from: 'checkpoint', file: 'model.safetensors.index.json', family: 'bert' } });
    sharded.logits.flat(2).forEach((v, i) => expect(Math.abs(v - plain.logits.flat(2)[i])).toBeLessThan(1e-5));
    const bf16 = await rawLogits(await resaved('bert-bf16', 'BF16', 1), {});
    const a = plain.logits.flat(2);
    const worst = Math.max(...bf16.logits.flat(2).map((v, i) => Math.abs(v - a[i])));
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThan(0.5);
  });

  it('fetches only the chosen path from a hub: the ONNX graph by default, the safetensors with graphSource: checkpoint', async () => {
    const fetched = async (options: TokenClassifierOptions): Promise<string[]> => {
      const files: string[] = [];
      const c = await loadTokenClassifier('org/bert-both', { hubUrl: hub.url, onProgress: (e) => void (e.type === 'file-done' && files.push(e.file)), ...options });
      await c.dispose();
      return files;
    };
    const onnx = await fetched({ cacheDir: join(root, 'hub-onnx') });
    expect(onnx).toContain('onnx/model.onnx');
    expect(onnx).not.toContain('model.safetensors');
    const built = await fetched({ cacheDir: join(root, 'hub-ck'), graphSource: 'checkpoint' });
    expect(built).toContain('model.safetensors');
    expect(built).not.toContain('onnx/model.onnx');
  });

  it('loads an XLM-R hub repo whose tokenizer is only sentencepiece.bpe.model: fetches it, not tokenizer.json; the same logits as from tokenizer.json', async () => {
    const files: string[] = [];
    const fromHub = await loadTokenClassifier('org/xlmr-spm', { hubUrl: hub.url, cacheDir: join(root, 'hub-xlmr'), returnRawLogits: true, onProgress: (e) => void (e.type === 'file-done' && files.push(e.file)) });
    const fromJson = await loadTokenClassifier(join(root, 'xlmr'), { cacheDir: join(root, 'cache'), returnRawLogits: true });
    try {
      expect(files).toContain('sentencepiece.bpe.model');
      expect(files).not.toContain('tokenizer.json');
      expect(fromHub.info).toMatchObject({ graph: { from: 'checkpoint', family: 'roberta' }, lowercase: false, lowercaseSource: 'sentencepiece.bpe.model' });
      const ids = await fromHub.predictTokenIds(TEXTS);
      const reference = await fromJson.predictTokenIds(TEXTS);
      expect(ids.classIds).toEqual(reference.classIds);
      const [a, b] = await Promise.all([fromHub.predictV1({ instances: TEXTS }), fromJson.predictV1({ instances: TEXTS })]);
      const flat = (r: typeof a): number[] => (r.predictions as Array<Array<Record<string, number>>>).flatMap((t) => t.flatMap((row) => Object.values(row)));
      const diffs = flat(a).map((v, i) => Math.abs(v - flat(b)[i]));
      expect(flat(a)).toHaveLength(flat(b).length);
      expect(Math.max(...diffs)).toBeLessThan(1e-5);
    } finally {
      await Promise.all([fromHub.dispose(), fromJson.dispose()]);
    }
    expect(xlmrSpm.idOf(4)).toBe(2999); // <mask>: last in the file's ids, 5th in the set's
  });

  it('loads a RoBERTa hub repo whose tokenizer is vocab.json + merges.txt: fetches both and not tokenizer.json, answers as from tokenizer.json; a repo with all three fetches tokenizer.json only', async () => {
    const fetched = async (id: string, cacheDir: string): Promise<{ files: string[]; ids: number[][] }> => {
      const files: string[] = [];
      const c = await loadTokenClassifier(id, { hubUrl: hub.url, cacheDir: join(root, cacheDir), onProgress: (e) => void (e.type === 'file-done' && files.push(e.file)) });
      try {
        return { files, ids: (await c.predictTokenIds(TEXTS)).classIds };
      } finally {
        await c.dispose();
      }
    };
    const bpe = await fetched('org/roberta-bpe', 'hub-roberta-bpe');
    expect(bpe.files).toEqual(expect.arrayContaining(['vocab.json', 'merges.txt', 'model.safetensors']));
    expect(bpe.files).not.toContain('tokenizer.json');
    const all = await fetched('org/roberta-all', 'hub-roberta-all');
    expect(all.files).toContain('tokenizer.json');
    expect(all.files).not.toContain('vocab.json');
    expect(all.files).not.toContain('merges.txt');
    expect(bpe.ids).toEqual(all.ids);
  });

  it('loads a hub repo with vocab.txt and added_tokens.json: fetches the added tokens, keeps [ENT] one token (its own embedding row), served through V1 as KServe would', async () => {
    const files: string[] = [];
    const c = await loadTokenClassifier('org/bert-added', { hubUrl: hub.url, cacheDir: join(root, 'hub-bert-added'), returnRawLogits: true, onProgress: (e) => void (e.type === 'file-done' && files.push(e.file)) });
    try {
      expect(files).toEqual(expect.arrayContaining(['vocab.txt', 'added_tokens.json', 'model.safetensors']));
      expect(c.info.graph).toMatchObject({ from: 'checkpoint', family: 'bert' });
      const answer = await c.predictV1({ instances: ['I live in [ENT] now', 'I live in Berlin now'] });
      const [ent, berlin] = answer.predictions as Array<Array<Record<string, number>>>;
      // One token each ([CLS] i live in · now [SEP]), and [ENT]'s row is berlin's: the same logits.
      expect(ent).toHaveLength(7);
      ent.flatMap((t) => Object.values(t)).forEach((v, i) => expect(Math.abs(v - berlin.flatMap((t) => Object.values(t))[i])).toBeLessThan(1e-5));
    } finally {
      await c.dispose();
    }
  });

  it('builds CamembertForTokenClassification as the RoBERTa network it is: transformers\' logits of the same weights within 1e-4', async () => {
    // The XLM-R set's checkpoint under CamemBERT's names (transformers' CamemBERT classes are RoBERTa's, weights under `roberta.`).
    const dir = copyModel('kserve-hf-xlmr', 'camembert', false, (d) =>
      editJson(join(d, 'config.json'), (c) => {
        c.architectures = ['CamembertForTokenClassification'];
        c.model_type = 'camembert';
      }),
    );
    const recorded = JSON.parse(readFileSync(join(SETS, 'kserve-hf-xlmr', 'logits.json'), 'utf8')) as { singles: Array<{ text: string; logits: number[][] }> };
    const c = await loadTokenClassifier(dir, { cacheDir: join(root, 'cache'), returnRawLogits: true });
    try {
      expect(c.info).toMatchObject({ graph: { from: 'checkpoint', family: 'roberta' }, maxLength: 512 });
      let worst = 0;
      for (const single of recorded.singles) {
        const [rows] = (await c.predictV1({ instances: [single.text] })).predictions as Array<Array<Record<string, number>>>;
        expect(rows).toHaveLength(single.logits.length);
        single.logits.forEach((row, t) => row.forEach((v, k) => (worst = Math.max(worst, Math.abs(rows[t][String(k)] - v)))));
      }
      expect(worst).toBeLessThan(1e-4);
    } finally {
      await c.dispose();
    }
  });

  it('names an unsupported architecture and the supported list', async () => {
    const dir = copyModel('kserve-hf-roberta', 'gpt2', false, (d) => editJson(join(d, 'config.json'), (c) => void (c.architectures = ['GPT2ForTokenClassification'])));
    const err = await loadTokenClassifier(dir, { cacheDir: join(root, 'cache') }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'model_load_failed' });
    expect((err as Error).message).toMatch(/GPT2ForTokenClassification.*BertForTokenClassification.*XLMRobertaForTokenClassification/s);
  });

  it('names the type of a tokenizer.json model it does not know', async () => {
    const dir = copyModel('kserve-hf-roberta', 'odd-tokenizer', false, (d) => editJson(join(d, 'tokenizer.json'), (t) => void ((t.model as Record<string, unknown>).type = 'CharLevel')));
    const err = await loadTokenClassifier(dir, { cacheDir: join(root, 'cache') }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'model_load_failed' });
    expect((err as Error).message).toContain('"CharLevel"');
  });

  it('names both sizes when the tokenizer has more ids than the embedding has rows', async () => {
    const onnxDir = copyModel('kserve-hf', 'small-vocab-onnx', true, (d) => editJson(join(d, 'config.json'), (c) => void (c.vocab_size = 20000)));
    const err = await loadTokenClassifier(onnxDir, { cacheDir: join(root, 'cache') }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/30522 token ids.*20000 rows/);
    const ckDir = copyModel('kserve-hf', 'small-vocab-ck', false, (d) => editJson(join(d, 'config.json'), (c) => void (c.vocab_size = 20000)));
    const err2 = await loadTokenClassifier(ckDir, { cacheDir: join(root, 'cache') }).catch((e: unknown) => e);
    expect(err2).toMatchObject({ code: 'model_load_failed' });
    expect((err2 as Error).message).toMatch(/word_embeddings\.weight has shape \[30522, 32\].*\[20000, 32\]/);
  });

  it('does not lower-case for an XLM-R tokenizer even when asked (transformers ignores do_lower_case there), and cuts at 512 tokens', async () => {
    const c = await loadTokenClassifier(join(root, 'xlmr'), { cacheDir: join(root, 'cache'), disableLowerCase: false });
    try {
      expect(c.info).toMatchObject({ lowercase: false, lowercaseSource: 'tokenizer.json', maxLength: 512 });
      const long = Array.from({ length: 700 }, (_, i) => `w${i}`).join(' ');
      const r = await c.predictTokenIds([long]);
      expect(r.truncated).toEqual([true]);
      expect(r.classIds[0]).toHaveLength(512);
    } finally {
      await c.dispose();
    }
  });
});
