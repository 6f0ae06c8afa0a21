import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { Tokenizer } from 'tokenizers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChronosFixtureRepo, writeNerFixtureRepo, writeTokenClassifierRepo } from './model-repo.js';
import { CONLL_LABELS, nerFixtureVocab } from './ner-fixture-vocab.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-onnx-repo-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Tokenizes with the repo's tokenizer.json, runs its ONNX model and returns per-token labels. */
async function tag(dir: string, text: string): Promise<{ tokens: string[]; labels: string[] }> {
  const encoding = await Tokenizer.fromFile(join(dir, 'tokenizer.json')).encode(text);
  const ids = encoding.getIds();
  const tensor = (values: number[]): ort.Tensor => new ort.Tensor('int64', BigInt64Array.from(values, (v) => BigInt(v)), [1, values.length]);
  const session = await ort.InferenceSession.create(join(dir, 'onnx/model.onnx'));
  const { logits } = await session.run({
    input_ids: tensor(ids),
    attention_mask: tensor(encoding.getAttentionMask()),
    token_type_ids: tensor(encoding.getTypeIds()),
  });
  await session.release();
  const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as { id2label: Record<string, string> };
  const data = logits.data as Float32Array;
  const n = Object.keys(config.id2label).length;
  const labels = ids.map((_, t) => {
    const row = Array.from(data.subarray(t * n, (t + 1) * n));
    return config.id2label[String(row.indexOf(Math.max(...row)))];
  });
  return { tokens: encoding.getTokens(), labels };
}

describe('writeNerFixtureRepo', () => {
  it('writes a hub-style repo whose tokenizer.json loads in tokenizers with offsets and word ids', async () => {
    const dir = join(root, 'ner-lower');
    const files = await writeNerFixtureRepo(dir);
    expect(files).toEqual(['config.json', 'onnx/model.onnx', 'special_tokens_map.json', 'tokenizer.json', 'tokenizer_config.json', 'vocab.txt']);
    expect((await readdir(root)).some((f) => f.endsWith('.incomplete'))).toBe(false);
    const encoding = await Tokenizer.fromFile(join(dir, 'tokenizer.json')).encode('Hello, Washington!');
    expect(encoding.getTokens()).toEqual(['[CLS]', 'hello', ',', 'washing', '##ton', '!', '[SEP]']);
    expect(encoding.getIds().slice(0, 1)).toEqual([101]);
    expect(encoding.getIds().at(-1)).toBe(102);
    expect(encoding.getOffsets()).toEqual([[0, 0], [0, 5], [5, 6], [7, 14], [14, 17], [17, 18], [0, 0]]);
    expect(encoding.getWordIds()).toEqual([null, 0, 1, 2, 2, 3, null]);
  });

  it('writes config.json with dslim/bert-base-NER label order and matching vocab files', async () => {
    const dir = join(root, 'ner-lower');
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config.architectures).toEqual(['BertForTokenClassification']);
    expect(config.model_type).toBe('bert');
    expect(config.id2label).toEqual({ 0: 'O', 1: 'B-MISC', 2: 'I-MISC', 3: 'B-PER', 4: 'I-PER', 5: 'B-ORG', 6: 'I-ORG', 7: 'B-LOC', 8: 'I-LOC' });
    expect(config.label2id).toEqual(Object.fromEntries(CONLL_LABELS.map((l, i) => [l, i])));
    const vocab = (await readFile(join(dir, 'vocab.txt'), 'utf8')).trimEnd().split('\n');
    expect(vocab).toEqual(nerFixtureVocab(true));
    expect(vocab.slice(100, 104)).toEqual(['[UNK]', '[CLS]', '[SEP]', '[MASK]']);
    const tokenizerConfig = JSON.parse(await readFile(join(dir, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
    expect(tokenizerConfig).toMatchObject({ do_lower_case: true, model_max_length: 512 });
  });

  it('tags the known entity words exactly and everything else O', async () => {
    const dir = join(root, 'ner-lower');
    const { tokens, labels } = await tag(dir, 'My name is Wolfgang and I live in Berlin, near Angela Merkel of the United Nations.');
    const tagged = tokens.map((t, i) => `${t}/${labels[i]}`);
    expect(tagged).toEqual([
      '[CLS]/O', 'my/O', 'name/O', 'is/O', 'wolfgang/B-PER', 'and/O', 'i/O', 'live/O', 'in/O', 'berlin/B-LOC', ',/O',
      'near/O', 'angela/B-PER', 'merkel/I-PER', 'of/O', 'the/O', 'united/B-ORG', 'nations/I-ORG', './O', '[SEP]/O',
    ]);
  });

  it('a cased repo keeps case and tags both Paris and paris; the random-encoder variant still tags', async () => {
    const dir = join(root, 'ner-cased');
    await writeNerFixtureRepo(dir, { lowercase: false, encoder: 'random', seed: 3 });
    const { tokens, labels } = await tag(dir, 'John Smith flew from paris to New York');
    expect(tokens).toEqual(['[CLS]', 'John', 'Smith', 'f', '##l', '##e', '##w', 'from', 'paris', 'to', 'New', 'York', '[SEP]']);
    expect(labels).toEqual(['O', 'B-PER', 'I-PER', 'O', 'O', 'O', 'O', 'O', 'B-LOC', 'O', 'B-LOC', 'I-LOC', 'O']);
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({ num_hidden_layers: 2, hidden_size: 32 });
  });

  it('writeTokenClassifierRepo replaces an existing folder and honours custom labels', async () => {
    const dir = join(root, 'custom');
    await writeNerFixtureRepo(dir);
    const files = await writeTokenClassifierRepo(dir, { vocab: nerFixtureVocab(true), labels: ['A', 'B'], model: { layers: 1, hidden: 16, heads: 2 } });
    expect(files).toContain('onnx/model.onnx');
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config.id2label).toEqual({ 0: 'A', 1: 'B' });
    const { labels } = await tag(dir, 'hello world');
    expect(labels.every((l) => l === 'A' || l === 'B')).toBe(true);
  });
});

describe('writeChronosFixtureRepo', () => {
  it('writes chronos_config and a rule model with the documented defaults', async () => {
    const dir = join(root, 'chronos-rule');
    expect(await writeChronosFixtureRepo(dir)).toEqual(['config.json', 'onnx/model.onnx']);
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({
      architectures: ['ChronosBoltModelForForecasting'],
      model_type: 't5',
      chronos_config: { context_length: 64, prediction_length: 8, quantiles: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9], input_patch_size: 16 },
    });
    const session = await ort.InferenceSession.create(join(dir, 'onnx/model.onnx'));
    const { quantile_preds: out } = await session.run({ context: new ort.Tensor('float32', Float32Array.of(NaN, 2, 4), [1, 3]) });
    await session.release();
    expect(out.dims).toEqual([1, 9, 8]);
    expect((out.data as Float32Array)[4 * 8]).toBe(3); // median = mean
    expect((out.data as Float32Array)[0]).toBe(Math.fround(3 + Math.fround((0.1 - 0.5) * 10)));
  });

  it('writes a bolt-like model that runs on a patch-aligned context', async () => {
    const dir = join(root, 'chronos-bolt');
    await writeChronosFixtureRepo(dir, { kind: 'bolt-like', dModel: 32, heads: 4, layers: 1 });
    const session = await ort.InferenceSession.create(join(dir, 'onnx/model.onnx'));
    const context = Float32Array.from({ length: 32 }, (_, i) => (i < 10 ? NaN : i));
    const { quantile_preds: out } = await session.run({ context: new ort.Tensor('float32', context, [1, 32]) });
    await session.release();
    expect(out.dims).toEqual([1, 9, 8]);
    expect(Array.from(out.data as Float32Array).every(Number.isFinite)).toBe(true);
  });
});
