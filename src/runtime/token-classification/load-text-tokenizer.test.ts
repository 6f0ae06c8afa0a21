import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeTokenClassifierRepo } from '../../onnx/model-repo.js';
import { CONLL_LABELS, nerFixtureVocab } from '../../onnx/ner-fixture-vocab.js';
import { loadTokenClassifier, type TokenClassifierOptions } from './load-token-classifier.js';
import type { TokenClassifier } from './token-classifier.js';

// A cased repo whose label table tells `Paris` (B-LOC) from `paris` (O): layers 0, logits = table row.
let root: string;
let cased: string;
let casedVocabOnly: string;

async function writeCasedRepo(dir: string): Promise<void> {
  const vocab = nerFixtureVocab(false);
  const n = CONLL_LABELS.length;
  const table = new Float32Array(vocab.length * n);
  vocab.forEach((token, id) => {
    const label = token === 'Paris' ? 'B-LOC' : token === 'Berlin' ? 'B-LOC' : 'O';
    table[id * n + CONLL_LABELS.indexOf(label)] = 10;
  });
  await writeTokenClassifierRepo(dir, { vocab, lowercase: false, model: { layers: 0, labelTable: table } });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-tok-'));
  cased = join(root, 'cased');
  casedVocabOnly = join(root, 'cased-vocab-only');
  await writeCasedRepo(cased);
  await writeCasedRepo(casedVocabOnly);
  await rm(join(casedVocabOnly, 'tokenizer.json'));
});
const opened: TokenClassifier[] = [];
async function open(dir: string, options: TokenClassifierOptions): Promise<TokenClassifier> {
  const c = await loadTokenClassifier(dir, options);
  opened.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c.dispose()));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const B_LOC = CONLL_LABELS.indexOf('B-LOC');

describe('loadTextTokenizer lower-casing (via loadTokenClassifier)', () => {
  it('keeps case with disableLowerCase: true, so Paris and paris get different labels', async () => {
    const c = await open(cased, { modelName: 'm', disableLowerCase: true });
    expect(c.info).toMatchObject({ lowercase: false, lowercaseSource: 'option' });
    const { classIds } = await c.predictTokenIds(['Paris', 'paris']);
    expect(classIds).toEqual([[0, B_LOC, 0], [0, 0, 0]]);
  });

  it('lower-cases with disableLowerCase: false (KServe default) even for a cased model', async () => {
    const c = await open(cased, { modelName: 'm', disableLowerCase: false });
    expect(c.info).toMatchObject({ lowercase: true, lowercaseSource: 'option' });
    const { classIds } = await c.predictTokenIds(['Paris', 'paris']);
    expect(classIds).toEqual([[0, 0, 0], [0, 0, 0]]);
  });

  it('follows tokenizer_config do_lower_case when the option is unset', async () => {
    const c = await open(cased, { modelName: 'm' });
    expect(c.info).toMatchObject({ lowercase: false, lowercaseSource: 'tokenizer_config', tokenizerEngine: 'wordpiece' });
    expect((await c.predictTokenIds(['Paris'])).classIds).toEqual([[0, B_LOC, 0]]);
  });

  it('keeps the native tokenizers with tokenizerEngine: tokenizers, with the same answers', async () => {
    const native = await open(cased, { modelName: 'n', tokenizerEngine: 'tokenizers' });
    const ours = await open(casedVocabOnly, { modelName: 'o' });
    expect([native.info.tokenizerEngine, ours.info.tokenizerEngine]).toEqual(['tokenizers', 'wordpiece']);
    const texts = ['Paris [SEP] Berlin', 'Ünïcödé 東京 😀 paris'];
    expect(await ours.classify(texts, { aggregation: 'none', ignoreLabels: [] })).toEqual(await native.classify(texts, { aggregation: 'none', ignoreLabels: [] }));
  });

  it('builds a WordPiece tokenizer from vocab.txt that agrees with tokenizer.json', async () => {
    const texts = ['Paris and Berlin, 2024!', 'Washington 😀 東京', ''];
    for (const disableLowerCase of [true, false]) {
      const fromJson = await open(cased, { modelName: 'a', disableLowerCase });
      const fromVocab = await open(casedVocabOnly, { modelName: 'b', disableLowerCase });
      const a = await fromJson.classify(texts, { aggregation: 'none', ignoreLabels: [] });
      const b = await fromVocab.classify(texts, { aggregation: 'none', ignoreLabels: [] });
      expect(b).toEqual(a);
    }
  });
});

describe('loadTextTokenizer truncation', () => {
  it('cuts at maxLength and reports it per text and in the counters', async () => {
    const c = await open(cased, { modelName: 'm', maxLength: 8 });
    expect(c.info).toMatchObject({ maxLength: 8, maxLengthSource: 'option' });
    const long = Array.from({ length: 50 }, () => 'Paris').join(' ');
    const { classIds, truncated } = await c.predictTokenIds([long, 'Paris']);
    expect(classIds[0]).toHaveLength(8);
    expect(truncated).toEqual([true, false]);
    expect(c.stats().truncatedTexts).toBe(1);
  });

  it('defaults to tokenizer_config model_max_length and rejects a maxLength above the positions', async () => {
    const c = await open(cased, { modelName: 'm' });
    expect(c.info).toMatchObject({ maxLength: 512, maxLengthSource: 'tokenizer_config' });
    await expect(loadTokenClassifier(cased, { modelName: 'm', maxLength: 513 })).rejects.toMatchObject({ code: 'config' });
  });
});
