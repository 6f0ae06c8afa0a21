import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTokenClassifierRepo } from '../../onnx/model-repo.js';
import { nerFixtureVocab } from '../../onnx/ner-fixture-vocab.js';
import { loadTextTokenizer, type TextTokenizer, type TextTokenizerOptions } from './load-text-tokenizer.js';
import { findTokenClassFiles, type TokenClassFiles } from './model-files.js';

// The KServe conformance model (bert-base-uncased vocabulary, as recorded) beside the checkout.
const CONFORMANCE_MODEL = join(process.cwd(), '../shared/conformance/kserve-hf/model');

/** A small seeded generator (mulberry32), so a failure names a reproducible text. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES: Record<string, readonly string[]> = {
  words: ['Paris', 'paris', 'BERLIN', 'Washington', 'the', 'unaffable', 'playing', 'John', 'McDonald', "don't", 'e-mail', '2024', '3.14'],
  punctuation: ['.', ',', '!', '?', '(', ')', '"', "'", '-', '—', '–', '«', '»', '“', '”', '¿', '¡', '…', '。', '、', '@', '#', '$', '%', '&', '*', '_', '~', '`', '^', '|', '\\', '/', ':', ';', '<', '>', '=', '+', '[', ']', '{', '}'],
  accented: ['é', 'É', 'Å', 'ñ', 'Ö', 'ç', 'İ', 'ı', 'ß', 'Σ', 'ς', 'café', 'naïve', 'Ελλάδα', 'Москва', 'Ærø', 'ǅ', 'ﬁ', 'Å', 'ḱ'],
  combining: ['e\u0301', 'a\u0308', 'n\u0303', 'o\u0302\u0323', '\u0301', 'i\u0307', 'A\u030a', '\u20dd', 'क्षि', 'ก่'],
  cjk: ['東京', '中文', '北京大学', '𠀀', '\u{2a700}', '\uf900', '한국어', 'ひらがな', 'カタカナ', '㐀', '\u{2f800}', '\u{2b820}'],
  astral: ['😀', '👍🏽', '🥰', '👨‍👩‍👧', '🇫🇷', '𝐀𝐁𝐂', '𝔘𝔫𝔦', '\u{1f9ea}', '\u{10400}', '\u{10428}'],
  control: ['\u0000', '\ufffd', '\u0001', '\u007f', '\u0085', '\u200b', '\u200d', '\u200e', '\ufeff', '\u00ad', '\ue000', '\u{f0000}', '\u000b', '\u000c', '\u001f', '\ud800', '\udc00x'],
  spaces: [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u3000', '\u1680', '\u202f', '\u2028', '\u180e'],
  specials: ['[SEP]', '[CLS]', '[UNK]', '[PAD]', '[MASK]', '[SEP', 'SEP]', '[sep]', '[[SEP]]', 'a[SEP]b', ' [CLS] '],
};

function longWord(r: () => number): string {
  const n = 95 + Math.floor(r() * 20);
  return Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(r() * 26))).join('');
}

/** A text of 1–40 pieces drawn from every class (and, sometimes, a word over 100 characters). */
function generatedText(r: () => number): string {
  const classes = Object.keys(PIECES);
  const n = 1 + Math.floor(r() * 40);
  let text = '';
  for (let i = 0; i < n; i++) {
    if (r() < 0.02) {
      text += longWord(r);
    } else {
      const list = PIECES[classes[Math.floor(r() * classes.length)]];
      text += list[Math.floor(r() * list.length)];
    }
    text += r() < 0.6 ? ' ' : '';
  }
  return text;
}

const TEXTS = [
  '',
  ' ',
  'Paris and Berlin, 2024!',
  'hello [SEP] world',
  '[CLS]',
  'Héllo 🥰 𠀀x naïve CAFÉ',
  '\u0000\ufffd\u0085 x',
  'İstanbul ΣΊΣΥΦΟΣ straße',
  ...Array.from({ length: 400 }, (_, i) => generatedText(rng(1000 + i))),
];

let root: string;
const repos: Record<string, TokenClassFiles> = {};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-wordpiece-'));
  for (const lowercase of [true, false]) {
    const dir = join(root, lowercase ? 'uncased' : 'cased');
    await writeTokenClassifierRepo(dir, { vocab: nerFixtureVocab(lowercase), lowercase, model: { layers: 0 } });
    repos[lowercase ? 'fixture-uncased' : 'fixture-cased'] = await findTokenClassFiles(dir);
  }
  repos.conformance = await findTokenClassFiles(CONFORMANCE_MODEL);
  repos['conformance-vocab-txt'] = { ...repos.conformance, tokenizerJson: undefined };
  // Variants of the conformance tokenizer.json the real models have too: stripping added tokens,
  // BertProcessing, no post-processor, other normaliser switches, a short word limit.
  const base = JSON.parse(await readFile(repos.conformance.tokenizerJson ?? '', 'utf8')) as Record<string, unknown>;
  const added = base.added_tokens as Array<Record<string, unknown>>;
  const normalizer = base.normalizer as Record<string, unknown>;
  const model = base.model as Record<string, unknown>;
  const variants: Record<string, Record<string, unknown>> = {
    strip: {
      added_tokens: added.map((t) => (t.content === '[SEP]' ? { ...t, lstrip: true, rstrip: true } : t.content === '[MASK]' ? { ...t, lstrip: true } : t)),
    },
    'bert-processing': { post_processor: { type: 'BertProcessing', sep: ['[SEP]', 102], cls: ['[CLS]', 101] }, model: { ...model, max_input_chars_per_word: 10 } },
    'no-post-processor': {
      post_processor: null,
      normalizer: { ...normalizer, clean_text: false, handle_chinese_chars: false, strip_accents: true, lowercase: false },
    },
  };
  for (const [name, change] of Object.entries(variants)) {
    const path = join(root, `${name}.json`);
    await writeFile(path, JSON.stringify({ ...base, ...change }));
    repos[name] = { ...repos.conformance, tokenizerJson: path, tokenizerConfig: undefined };
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function pair(repo: string, options: TextTokenizerOptions): Promise<[TextTokenizer, TextTokenizer]> {
  const files = repos[repo];
  const config = { max_position_embeddings: 512 };
  return [await loadTextTokenizer(files, config, { ...options, tokenizerEngine: 'tokenizers' }), await loadTextTokenizer(files, config, options)];
}

const CASES: Array<[string, TextTokenizerOptions]> = [
  ['conformance', {}],
  ['conformance', { disableLowerCase: true }],
  ['conformance', { addSpecialTokens: false, maxLength: 24 }],
  ['conformance', { disableLowerCase: true, maxLength: 12 }],
  ['conformance-vocab-txt', {}],
  ['conformance-vocab-txt', { disableLowerCase: true, addSpecialTokens: false }],
  ['strip', {}],
  ['strip', { disableLowerCase: true, maxLength: 20 }],
  ['bert-processing', {}],
  ['no-post-processor', { maxLength: 30 }],
  ['fixture-uncased', { maxLength: 16 }],
  ['fixture-cased', {}],
  ['fixture-cased', { disableLowerCase: false, addSpecialTokens: false }],
];

describe('createBertWordPiece (through loadTextTokenizer)', () => {
  it.each(CASES)('matches the native tokenizers on %s with %j: ids, truncation, offsets, word ids', async (repo, options) => {
    const [native, ours] = await pair(repo, options);
    expect([native.engine, ours.engine]).toEqual(['tokenizers', 'wordpiece']);
    const expected = await native.encode(TEXTS, true);
    const got = await ours.encode(TEXTS, true);
    const plain = ours.encodeSync?.(TEXTS, false);
    // `truncated` is checked against the untruncated length: when no special tokens are added the
    // native Encoding often loses its overflowing parts (so reports "not cut" for a cut text).
    const [full] = await pair(repo, { ...options, maxLength: undefined });
    const lengths = (await full.encode(TEXTS, false)).map((e) => e.ids.length);
    for (let i = 0; i < TEXTS.length; i++) {
      const truth = { ...expected[i], truncated: lengths[i] > ours.maxLength };
      if (options.addSpecialTokens !== false && repo !== 'no-post-processor') {
        expect(expected[i].truncated).toBe(truth.truncated);
      }
      expect({ text: TEXTS[i], ...got[i] }).toEqual({ text: TEXTS[i], ...truth });
      expect(plain?.[i]).toEqual({ ...truth, offsets: [], codePointOffsets: [], wordIds: [] });
    }
    // The generated texts do reach the cases they are for.
    expect(lengths.some((n) => n > ours.maxLength)).toBe(options.maxLength !== undefined);
  }, 60_000);

  it('uses the native tokenizers where the pipeline is not exactly BERT (a Lowercase step added to a Sequence)', async () => {
    const files = repos['fixture-cased'];
    const json = join(root, 'seq.json');
    const parsed = JSON.parse(await readFile(files.tokenizerJson ?? '', 'utf8')) as Record<string, unknown>;
    parsed.normalizer = { type: 'Sequence', normalizers: [{ type: 'NFC' }, parsed.normalizer] };
    await writeFile(json, JSON.stringify(parsed));
    const t = await loadTextTokenizer({ ...files, tokenizerJson: json, tokenizerConfig: undefined }, {}, {});
    expect(t.engine).toBe('tokenizers');
    expect(t.encodeSync).toBeUndefined();
  });
});
