import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tokenizers from 'tokenizers';
import { afterAll, describe, expect, it } from 'vitest';
import { piecesOfUnigram, precompiledCharsmap, writeSentencePieceModel } from '../../../../test/fixtures/sentencepiece-writer.js';
import { toXlmrSentencePieceFolder } from '../../../../test/fixtures/xlmr-sentencepiece.js';
import { findTokenClassFiles } from '../model-files.js';
import { loadTextTokenizer } from '../load-text-tokenizer.js';
import { debertaV2TokenizerJson } from './deberta-v2-tokenizer-json.js';
import { readSentencePieceModel } from './sentencepiece-model.js';
import { camembertTokenizerJson } from './camembert-tokenizer-json.js';
import { xlmRobertaTokenizerJson } from './xlm-roberta-tokenizer-json.js';

const SET = join(process.cwd(), '../shared/conformance/kserve-hf-deberta-v3/model');
const shipped = JSON.parse(readFileSync(join(SET, 'tokenizer.json'), 'utf8')) as { model: { vocab: Array<[string, number]>; unk_id: number }; added_tokens: unknown[] };
const root = mkdtempSync(join(tmpdir(), 'inferkit-spm-'));
/** findTokenClassFiles looks for no graph when given one: these tests load the tokenizer alone. */
const NO_GRAPH = { graphPath: 'unused' };
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A DeBERTa-v3 folder whose tokenizer is only spm.model (the set's vocabulary), and the set's tokenizer_config.json; no graph (see NO_GRAPH). */
function spmOnlyFolder(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  copyFileSync(join(SET, 'config.json'), join(dir, 'config.json'));
  copyFileSync(join(SET, 'tokenizer_config.json'), join(dir, 'tokenizer_config.json'));
  writeFileSync(join(dir, 'spm.model'), writeSentencePieceModel({ pieces: piecesOfUnigram(shipped, ['[MASK]']), unkId: shipped.model.unk_id }));
  return dir;
}

describe('readSentencePieceModel', () => {
  it('reads pieces, float32 scores, types, the unk id and the model type, skipping every other field (byte fallback among them)', () => {
    const m = readSentencePieceModel(
      writeSentencePieceModel({ pieces: [{ piece: '<unk>', score: 0, type: 2 }, { piece: '▁the', score: -3.25 }, { piece: 'é', score: -9.1, type: 4 }], modelType: 1, byteFallback: true, unkId: 7 }),
      'x/spm.model',
    );
    expect(m.pieces).toEqual([{ piece: '<unk>', score: 0, type: 2 }, { piece: '▁the', score: -3.25, type: 1 }, { piece: 'é', score: Math.fround(-9.1), type: 4 }]);
    // The UNKNOWN piece wins over a trainer unk_id that points elsewhere.
    expect(m).toMatchObject({ modelType: 1, unkId: 0 });
  });

  it('fails naming the file for bytes that are not a SentencePiece model, a truncated one, or one without pieces', () => {
    const good = writeSentencePieceModel({ pieces: [{ piece: '<unk>', score: 0, type: 2 }, { piece: 'a', score: -1 }] });
    expect(() => readSentencePieceModel(new TextEncoder().encode('{"model": {"type": "Unigram"}}'), 'repo/spm.model')).toThrow(/repo\/spm\.model is not a SentencePiece model/);
    expect(() => readSentencePieceModel(good.subarray(0, 9), 'repo/spm.model')).toThrow(/repo\/spm\.model is not a SentencePiece model \(.* at byte \d+\)/);
    expect(() => readSentencePieceModel(writeSentencePieceModel({ pieces: [], extras: false }), 'repo/spm.model')).toThrow(/no vocabulary pieces/);
    expect(() => readSentencePieceModel(writeSentencePieceModel({ pieces: [{ piece: 'a', score: -1 }], unkId: 5, extras: false }), 'repo/spm.model')).toThrow(/unk_id 5 is not a piece of its 1/);
  });
});

describe('readSentencePieceModel on damaged files', () => {
  it('answers every truncation and 2,000 seeded byte flips of a real-sized file with a model or an error naming the file, never a crash', () => {
    const good = writeSentencePieceModel({ pieces: piecesOfUnigram(shipped, ['[MASK]']).slice(0, 200), unkId: 3 });
    let seed = 12345;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const damaged: Uint8Array[] = [];
    for (let n = 0; n < good.length; n += 7) {
      damaged.push(good.subarray(0, n));
    }
    for (let k = 0; k < 2000; k++) {
      const bytes = good.slice();
      for (let flips = 1 + Math.floor(random() * 3); flips > 0; flips--) {
        bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      }
      damaged.push(bytes);
    }
    let errors = 0;
    for (const bytes of damaged) {
      try {
        const m = readSentencePieceModel(bytes, 'repo/spm.model');
        expect(m.pieces.length).toBeGreaterThan(0);
      } catch (e) {
        errors++;
        expect((e as Error).message).toMatch(/^repo\/spm\.model/);
        expect((e as { code?: string }).code).toBe('model_load_failed');
      }
    }
    expect(errors).toBeGreaterThan(0);
  });
});

describe('debertaV2TokenizerJson: what transformers makes of DeBERTa-v3\'s spm.model', () => {
  it('is the set\'s own tokenizer.json (saved by transformers\' DebertaV2Tokenizer) from the same vocabulary, scores at float32', () => {
    const model = readSentencePieceModel(writeSentencePieceModel({ pieces: piecesOfUnigram(shipped, ['[MASK]']), unkId: 3 }), 'spm.model');
    const built = debertaV2TokenizerJson(model, JSON.parse(readFileSync(join(SET, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>, 'spm.model');
    const expected = { ...shipped, model: { ...shipped.model, vocab: shipped.model.vocab.map(([p, s]) => [p, Math.fround(s)]) } };
    expect(built).toEqual(expected);
  });

  it('gives a special token missing from the vocabulary the next id; follows split_by_punct and add_prefix_space; refuses a BPE model naming it', async () => {
    const pieces = [{ piece: '[PAD]', score: 0, type: 3 }, { piece: '[CLS]', score: 0, type: 3 }, { piece: '[SEP]', score: 0, type: 3 }, { piece: '[UNK]', score: 0, type: 2 }, { piece: '▁', score: -2 }, { piece: 'a', score: -3 }, { piece: 'b', score: -3 }, { piece: ',', score: -4 }, { piece: '▁a', score: -1 }];
    const model = readSentencePieceModel(writeSentencePieceModel({ pieces, unkId: 3 }), 'spm.model');
    const json = debertaV2TokenizerJson(model, { split_by_punct: true }, 'spm.model');
    expect((json.added_tokens as Array<{ id: number; content: string }>).map((t) => [t.content, t.id])).toEqual([['[PAD]', 0], ['[CLS]', 1], ['[SEP]', 2], ['[UNK]', 3], ['[MASK]', 9]]);
    const t = tokenizers.Tokenizer.fromString(JSON.stringify(json));
    // split_by_punct: the comma is its own pre-token (so it gets its own ▁, as every pre-token does with prepend "always").
    expect((json.pre_tokenizer as { pretokenizers: Array<{ type: string }> }).pretokenizers.map((p) => p.type)).toEqual(['Punctuation', 'Metaspace']);
    expect((await t.encode('a,b [MASK]')).getTokens()).toEqual(['[CLS]', '▁a', '▁', ',', '▁', 'b', '[MASK]', '[SEP]']);
    // add_prefix_space false: the class's prepend_scheme "first", ▁ before the text's first piece only (not before
    // each punctuation split, as "always" does above; "never" would leave the first `a` bare).
    const noPrefix = tokenizers.Tokenizer.fromString(JSON.stringify(debertaV2TokenizerJson(model, { add_prefix_space: false, split_by_punct: true }, 'spm.model')));
    expect((await noPrefix.encode('a,b')).getTokens()).toEqual(['[CLS]', '▁a', ',', 'b', '[SEP]']);
    // A trainer's byte fallback is not the class's: unknown characters stay [UNK].
    const fallback = debertaV2TokenizerJson(readSentencePieceModel(writeSentencePieceModel({ pieces, unkId: 3, byteFallback: true }), 'spm.model'), {}, 'spm.model');
    expect(fallback.model).toMatchObject({ byte_fallback: false });
    const bpe = readSentencePieceModel(writeSentencePieceModel({ pieces, unkId: 3, modelType: 2 }), 'repo/spm.model');
    expect(() => debertaV2TokenizerJson(bpe, {}, 'repo/spm.model')).toThrow(/repo\/spm\.model: a SentencePiece BPE model; DeBERTa-v2\/v3's spm\.model is Unigram/);
  });
});

describe('loadTextTokenizer on a DeBERTa-v3 repo with only spm.model', () => {
  it('tokenizes as the set\'s tokenizer.json does, lower-casing as KServe does (do_lower_case first)', async () => {
    const dir = spmOnlyFolder('deberta');
    const files = await findTokenClassFiles(dir, {}, NO_GRAPH);
    expect(files).toMatchObject({ tokenizerJson: undefined, vocabTxt: undefined, spmModel: join(dir, 'spm.model') });
    const reference = await loadTextTokenizer({ ...files, spmModel: undefined, tokenizerJson: join(SET, 'tokenizer.json') }, { max_position_embeddings: 512 }, { disableLowerCase: false });
    const ours = await loadTextTokenizer(files, { model_type: 'deberta-v2', max_position_embeddings: 512 }, { disableLowerCase: false });
    expect(ours).toMatchObject({ lowercase: true, lowercaseSource: 'option', engine: 'tokenizers' });
    const texts = ['Angela Merkel visited Paris', 'T\u0308\u0301 and \u1FBC\u0301stan Word', '  spaced\tout\n[MASK] text  ', 'ünïcödé 東京 🙂'];
    expect(await ours.encode(texts, true)).toEqual(await reference.encode(texts, true));
    const kept = await loadTextTokenizer(files, { model_type: 'deberta-v2' }, {});
    expect(kept).toMatchObject({ lowercase: false, lowercaseSource: 'tokenizer_config' });
  });

  it('refuses a SentencePiece model for a model type it does not read (naming it and the ones it reads), and a repo with no tokenizer names the files it looks for', async () => {
    const dir = spmOnlyFolder('albert');
    const files = await findTokenClassFiles(dir, {}, NO_GRAPH);
    await expect(loadTextTokenizer(files, { model_type: 'albert' }, {})).rejects.toThrow(
      /reads a SentencePiece model for the config\.json model_types "deberta-v2" \(spm\.model\), "xlm-roberta" \(sentencepiece\.bpe\.model\), "camembert" \(sentencepiece\.bpe\.model\) only, and this model's model_type is "albert": its repo needs a tokenizer\.json/,
    );
    // A model type that is a name on every object is no family.
    await expect(loadTextTokenizer(files, { model_type: 'constructor' }, {})).rejects.toThrow(/this model's model_type is "constructor": its repo needs a tokenizer\.json/);
    // transformers' XLMRobertaTokenizer reads sentencepiece.bpe.model, not DeBERTa's spm.model.
    await expect(loadTextTokenizer(files, { model_type: 'xlm-roberta' }, {})).rejects.toThrow(/spm\.model: transformers' XLMRobertaTokenizer \(config\.json model_type "xlm-roberta"\) reads sentencepiece\.bpe\.model, and this repo has spm\.model/);
    rmSync(join(dir, 'spm.model'));
    await expect(findTokenClassFiles(dir, {}, NO_GRAPH)).rejects.toThrow(/lacks tokenizer\.json \(or vocab\.txt, or a SentencePiece model: spm\.model, sentencepiece\.bpe\.model, or vocab\.json \+ merges\.txt\)/);
  });
});

const XLMR = join(process.cwd(), '../shared/conformance/kserve-hf-xlmr/model');

/** The XLM-R set's model folder as a repo that ships only sentencepiece.bpe.model (its embedding rows in that file's ids). */
function xlmrSpmFolder(name: string): { dir: string; idOf: (setId: number) => number } {
  const dir = join(root, name);
  mkdirSync(dir);
  for (const f of ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json']) {
    copyFileSync(join(XLMR, f), join(dir, f));
  }
  return { dir, ...toXlmrSentencePieceFolder(dir) };
}

/** A tiny `sentencepiece.bpe.model`'s pieces, as XLM-R's and CamemBERT's files start: sentencepiece's `<unk>`, `<s>`, `</s>`. */
const FAIRSEQ_FILE_PIECES = [
  { piece: '<unk>', score: 0, type: 2 },
  { piece: '<s>', score: 0, type: 3 },
  { piece: '</s>', score: 0, type: 3 },
  { piece: ',', score: -3 },
  { piece: '▁', score: -2 },
  { piece: 'f', score: -4 },
  { piece: 'i', score: -4 },
  { piece: '▁fi', score: -1 },
  { piece: 'A', score: -4 },
];

describe('xlmRobertaTokenizerJson: what transformers makes of XLM-R\'s sentencepiece.bpe.model', () => {
  const pieces = FAIRSEQ_FILE_PIECES;

  it('numbers the pieces as fairseq did (specials 0-3, the file\'s fourth piece on one id up, <mask> last), reads its charsmap, keeps case', async () => {
    const charsmap = precompiledCharsmap({ '\uFB01': 'fi', '\uFF21': 'A' });
    const model = readSentencePieceModel(writeSentencePieceModel({ pieces, unkId: 0, charsmap }), 'sentencepiece.bpe.model');
    expect(model.precompiledCharsmap).toEqual(charsmap);
    const json = xlmRobertaTokenizerJson(model, {}, 'sentencepiece.bpe.model');
    expect((json.model as { vocab: Array<[string, number]>; unk_id: number }).vocab.map(([p]) => p)).toEqual(['<s>', '<pad>', '</s>', '<unk>', ',', '▁', 'f', 'i', '▁fi', 'A', '<mask>']);
    expect(json.model).toMatchObject({ type: 'Unigram', unk_id: 3, byte_fallback: false });
    expect((json.added_tokens as Array<{ id: number; content: string }>).map((t) => [t.content, t.id])).toEqual([['<s>', 0], ['<pad>', 1], ['</s>', 2], ['<unk>', 3], ['<mask>', 10]]);
    const t = tokenizers.Tokenizer.fromString(JSON.stringify(json));
    // The charsmap rewrites the ligature and the full-width letter (nmt_nfkc does); whitespace splits; `<s> $A </s>`.
    const ids = async (text: string): Promise<number[]> => [...(await t.encode(text)).getIds()];
    expect(await ids('\uFB01 ,\tfi\uFF21')).toEqual([0, 8, 5, 4, 8, 9, 2]);
    expect(await ids('fi <mask> x')).toEqual([0, 8, 10, 5, 3, 2]);
    // No charsmap (an empty one, as transformers reads it): the ligature stays itself, an unknown piece.
    const plain = tokenizers.Tokenizer.fromString(JSON.stringify(xlmRobertaTokenizerJson(readSentencePieceModel(writeSentencePieceModel({ pieces, charsmap: new Uint8Array() }), 'x'), {}, 'x')));
    expect([...(await plain.encode('\uFB01')).getIds()]).toEqual([0, 5, 3, 2]);
    const noPrefix = tokenizers.Tokenizer.fromString(JSON.stringify(xlmRobertaTokenizerJson(model, { add_prefix_space: false }, 'x')));
    expect((await noPrefix.encode('fi')).getTokens()).toEqual(['<s>', 'f', 'i', '</s>']);
  });

  it('refuses a BPE file and one holding only sentencepiece\'s specials, naming the file', () => {
    const bpe = readSentencePieceModel(writeSentencePieceModel({ pieces, modelType: 2 }), 'repo/sentencepiece.bpe.model');
    expect(() => xlmRobertaTokenizerJson(bpe, {}, 'repo/sentencepiece.bpe.model')).toThrow(/repo\/sentencepiece\.bpe\.model: a SentencePiece BPE model; XLM-RoBERTa's sentencepiece\.bpe\.model is Unigram/);
    const bare = readSentencePieceModel(writeSentencePieceModel({ pieces: pieces.slice(0, 3) }), 'repo/sentencepiece.bpe.model');
    expect(() => xlmRobertaTokenizerJson(bare, {}, 'repo/sentencepiece.bpe.model')).toThrow(/repo\/sentencepiece\.bpe\.model: 3 pieces, only sentencepiece's own specials/);
  });
});

describe('camembertTokenizerJson: what transformers makes of CamemBERT\'s sentencepiece.bpe.model', () => {
  const pieces = FAIRSEQ_FILE_PIECES;

  it('numbers the pieces as fairseq numbered CamemBERT\'s (five fairseq ids, then the file\'s second piece on, <mask> last), with XLM-R\'s pipeline', async () => {
    const charsmap = precompiledCharsmap({ '\uFB01': 'fi', '\uFF21': 'A' });
    const json = camembertTokenizerJson(readSentencePieceModel(writeSentencePieceModel({ pieces, unkId: 0, charsmap }), 'sentencepiece.bpe.model'), {}, 'sentencepiece.bpe.model');
    expect((json.model as { vocab: Array<[string, number]> }).vocab).toEqual([
      ['<s>NOTUSED', 0], ['<pad>', 0], ['</s>NOTUSED', 0], ['<unk>', 0], ['<unk>NOTUSED', -100],
      ['<s>', 0], ['</s>', 0], [',', -3], ['▁', -2], ['f', -4], ['i', -4], ['▁fi', -1], ['A', -4], ['<mask>', 0],
    ]);
    expect(json.model).toMatchObject({ type: 'Unigram', unk_id: 3, byte_fallback: false });
    expect((json.added_tokens as Array<{ id: number; content: string; lstrip: boolean }>).map((t) => [t.content, t.id, t.lstrip])).toEqual([
      ['<s>NOTUSED', 0, false], ['<pad>', 1, false], ['</s>NOTUSED', 2, false], ['<unk>', 3, false], ['<unk>NOTUSED', 4, false], ['<s>', 5, false], ['</s>', 6, false], ['<mask>', 13, true],
    ]);
    const t = tokenizers.Tokenizer.fromString(JSON.stringify(json));
    const encode = async (text: string) => t.encode(text);
    // The same segmentation as XLM-R's file gives ([0, 8, 5, 4, 8, 9, 2] there), in CamemBERT's ids: `<s>` 5, `</s>` 6, pieces 4 up.
    expect([...(await encode('\uFB01 ,\tfi\uFF21')).getIds()]).toEqual([5, 11, 8, 7, 11, 12, 6]);
    // `<mask>` takes the space before it (the class's lstrip): its offsets start at that space.
    const masked = await encode('fi <mask> x');
    expect([...masked.getIds()]).toEqual([5, 11, 13, 8, 3, 6]);
    expect(masked.getOffsets()[2]).toEqual([2, 9]);
  });

  it('takes the strip flags tokenizer_config.json gives a special token: its added_tokens_decoder entry, else an AddedToken mask_token, else the class\'s', async () => {
    const model = readSentencePieceModel(writeSentencePieceModel({ pieces, charsmap: null }), 'sentencepiece.bpe.model');
    const maskOffsets = async (json: Record<string, unknown>): Promise<[number, number]> => {
      const e = await tokenizers.Tokenizer.fromString(JSON.stringify(json)).encode('fi <mask> x');
      return e.getOffsets()[2] as [number, number];
    };
    // XLM-R's class gives <mask> no lstrip; an AddedToken mask_token (as xlm-roberta-base's files hold it) does.
    expect(await maskOffsets(xlmRobertaTokenizerJson(model, {}, 'x'))).toEqual([3, 9]);
    expect(await maskOffsets(xlmRobertaTokenizerJson(model, { mask_token: { content: '<mask>', lstrip: true, rstrip: false } }, 'x'))).toEqual([2, 9]);
    // CamemBERT's class lstrips it; an added_tokens_decoder entry saying otherwise wins.
    expect(await maskOffsets(camembertTokenizerJson(model, {}, 'x'))).toEqual([2, 9]);
    const decoder = { added_tokens_decoder: { '13': { content: '<mask>', lstrip: false, rstrip: false, normalized: false, special: true } } };
    expect(await maskOffsets(camembertTokenizerJson(model, decoder, 'x'))).toEqual([3, 9]);
  });

  it('refuses a file without sentencepiece\'s <s> and </s>, and one holding only its specials, naming the file', () => {
    const noBos = readSentencePieceModel(writeSentencePieceModel({ pieces: pieces.filter((p) => p.piece !== '<s>') }), 'repo/sentencepiece.bpe.model');
    expect(() => camembertTokenizerJson(noBos, {}, 'repo/sentencepiece.bpe.model')).toThrow(/repo\/sentencepiece\.bpe\.model: no <s> piece; not CamemBERT's vocabulary/);
    const bare = readSentencePieceModel(writeSentencePieceModel({ pieces: pieces.slice(0, 3) }), 'repo/sentencepiece.bpe.model');
    expect(() => camembertTokenizerJson(bare, {}, 'repo/sentencepiece.bpe.model')).toThrow(/3 pieces, only sentencepiece's own specials; not CamemBERT's vocabulary/);
  });
});

describe('loadTextTokenizer on an XLM-R repo with only sentencepiece.bpe.model', () => {
  const texts = ['Angela Merkel visited Paris', '  spaced\tout\n text  ', 'ünïcödé 東京 🙂 Привет', 'ÉCOLE école'];

  it('tokenizes as the set\'s tokenizer.json does, in the file\'s ids, offsets included; never lower-cased, as XLMRobertaTokenizer takes no do_lower_case', async () => {
    const { dir, idOf } = xlmrSpmFolder('xlmr');
    const files = await findTokenClassFiles(dir, {}, NO_GRAPH);
    expect(files).toMatchObject({ tokenizerJson: undefined, vocabTxt: undefined, spmModel: join(dir, 'sentencepiece.bpe.model') });
    const config = { model_type: 'xlm-roberta', max_position_embeddings: 514, vocab_size: 3000 };
    const reference = await loadTextTokenizer({ ...files, spmModel: undefined, tokenizerJson: join(XLMR, 'tokenizer.json') }, config, {});
    // KServe passes do_lower_case=True unless --disable_lower_case: the class ignores it.
    const ours = await loadTextTokenizer(files, config, { disableLowerCase: false, embeddingRows: 3000 });
    expect(ours).toMatchObject({ lowercase: false, lowercaseSource: 'sentencepiece.bpe.model', engine: 'tokenizers' });
    const expected = (await reference.encode(texts, true)).map((e) => ({ ...e, ids: e.ids.map(idOf) }));
    expect(await ours.encode(texts, true)).toEqual(expected);
  });

  it('names both sizes when the file gives more ids than the model\'s word embedding has rows (the file of another model)', async () => {
    const { dir } = xlmrSpmFolder('xlmr-small-embedding');
    const files = await findTokenClassFiles(dir, {}, NO_GRAPH);
    await expect(loadTextTokenizer(files, { model_type: 'xlm-roberta' }, { embeddingRows: 2999 })).rejects.toThrow(/sentencepiece\.bpe\.model: the tokenizer has 3000 token ids, the model's word embedding \(config\.json vocab_size\) 2999 rows/);
  });

  it('gives a tokenizer.json the pipeline of the class that loads it: XLMRobertaTokenizer and CamembertTokenizer keep the file\'s charsmap and split on whitespace', async () => {
    const dir = join(root, 'class-pipelines');
    mkdirSync(dir);
    const json = JSON.parse(readFileSync(join(XLMR, 'tokenizer.json'), 'utf8')) as Record<string, unknown>;
    const charsmap = Buffer.from(precompiledCharsmap({ '\uFB01': 'fi' })).toString('base64');
    // As transformers 4 wrote an XLM-R or CamemBERT file: the precompiled normaliser, runs of spaces collapsed, Metaspace alone.
    const metaspace = { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true };
    const v4 = { type: 'Sequence', normalizers: [{ type: 'Precompiled', precompiled_charsmap: charsmap }, { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' }] };
    writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify({ ...json, normalizer: v4, pre_tokenizer: metaspace, decoder: metaspace }));
    const files = await findTokenClassFiles(dir, { 'config.json': join(XLMR, 'config.json') }, NO_GRAPH);
    const load = async (tokenizerClass: string, modelType: string) => {
      writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({ tokenizer_class: tokenizerClass }));
      return loadTextTokenizer({ ...files, tokenizerConfig: join(dir, 'tokenizer_config.json') }, { model_type: modelType, max_position_embeddings: 514 }, {});
    };
    const ids = async (t: Awaited<ReturnType<typeof load>>, text: string) => (await t.encode([text], false))[0].ids;
    const xlmr = await load('XLMRobertaTokenizerFast', 'xlm-roberta');
    const camembert = await load('CamembertTokenizer', 'camembert');
    for (const t of [xlmr, camembert]) {
      // The file as written would keep a trailing space as a ▁ token, and leading spaces as one; both classes split on whitespace.
      expect(await ids(t, '  Paris  est\tbelle \n')).toEqual(await ids(t, 'Paris est belle'));
      expect(await ids(t, '\uFB01ne')).toEqual(await ids(t, 'fine'));
      expect(t).toMatchObject({ lowercase: false });
    }
    // A class named as an object's own property is no class with a pipeline: the file as written.
    const odd = await load('toString', 'constructor');
    expect(await ids(odd, 'Paris ')).not.toEqual(await ids(odd, 'Paris'));
  });

  it('keeps case from a tokenizer.json too when the repo names no tokenizer class: the class follows config.json\'s model_type', async () => {
    const dir = join(root, 'xlmr-json-bare');
    mkdirSync(dir);
    copyFileSync(join(XLMR, 'tokenizer.json'), join(dir, 'tokenizer.json'));
    const files = await findTokenClassFiles(dir, { 'config.json': join(XLMR, 'config.json') }, NO_GRAPH);
    const t = await loadTextTokenizer(files, { model_type: 'xlm-roberta', max_position_embeddings: 514 }, { disableLowerCase: false });
    expect(t).toMatchObject({ lowercase: false, lowercaseSource: 'tokenizer.json' });
    expect((await t.encode(['ÉCOLE'], false))[0].ids).not.toEqual((await t.encode(['école'], false))[0].ids);
  });
});

describe('debertaV2TokenizerJson: special tokens\' strip flags', () => {
  it('gives [MASK] the lstrip tokenizer_config.json\'s added_tokens_decoder sets (none by default)', () => {
    const model = readSentencePieceModel(writeSentencePieceModel({ pieces: [{ piece: '[PAD]', score: 0, type: 3 }, { piece: '[CLS]', score: 0, type: 3 }, { piece: '[SEP]', score: 0, type: 3 }, { piece: '[UNK]', score: 0, type: 2 }, { piece: '▁a', score: -1 }], unkId: 3 }), 'spm.model');
    const flags = (json: Record<string, unknown>) => (json.added_tokens as Array<{ content: string; lstrip: boolean }>).find((t) => t.content === '[MASK]')?.lstrip;
    expect(flags(debertaV2TokenizerJson(model, {}, 'spm.model'))).toBe(false);
    expect(flags(debertaV2TokenizerJson(model, { added_tokens_decoder: { '5': { content: '[MASK]', lstrip: true, rstrip: false } } }, 'spm.model'))).toBe(true);
  });
});
