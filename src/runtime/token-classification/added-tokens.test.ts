import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectFiles, TOKEN_CLASSIFICATION_SIDE_FILES } from '../../hub/file-spec.js';
import { piecesOfUnigram, writeSentencePieceModel } from '../../../test/fixtures/sentencepiece-writer.js';
import { editJson } from '../../../test/fixtures/edit-json.js';
import { tempDir } from '../../../test/fixtures/temp-dirs.js';
import { toVocabMergesFolder } from '../../../test/fixtures/roberta-vocab-merges.js';
import { loadTextTokenizer } from './load-text-tokenizer.js';
import { findTokenClassFiles, type TokenClassConfig } from './model-files.js';

// A repo without tokenizer.json keeps the tokens added to its tokenizer in added_tokens.json (content → id) or in
// tokenizer_config.json's added_tokens_decoder. transformers adds them when it loads the tokenizer, and the
// tokenizer.json it would then save lists them in added_tokens: what inferkit makes of the slow files must tokenize as
// that tokenizer.json does (the same Hugging Face tokenizers library applies the added tokens in both).
const BERT = join(process.cwd(), '../shared/conformance/kserve-hf/model');
const DEBERTA = join(process.cwd(), '../shared/conformance/kserve-hf-deberta-v3/model');
const ROBERTA = join(process.cwd(), '../shared/conformance/kserve-hf-roberta/model');
const root = tempDir('inferkit-added-');
let n = 0;

const TEXTS = ['Patient [ENT] has COVID19 since March.', '[ENT][ENT]covid19x and Covid19', 'nothing added here', '  [ENT]  ', ''];

interface Added {
  id: number;
  content: string;
  special?: boolean;
  normalized?: boolean;
  lstrip?: boolean;
  rstrip?: boolean;
}

/** A copy of `from` (tokenizer.json removed unless `keepJson`), with `edit` applied to its files. */
function folder(from: string, edit: (dir: string) => void, keepJson = false): string {
  const dir = join(root, `m${n++}`);
  cpSync(from, dir, { recursive: true });
  if (!keepJson) {
    rmSync(join(dir, 'tokenizer.json'));
  }
  edit(dir);
  return dir;
}

const readJson = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const writeJson = (path: string, value: unknown): void => writeFileSync(path, JSON.stringify(value));

/** The tokenizer.json transformers would save after adding `added` to `from`'s tokenizer. */
function savedTokenizerJson(from: string, added: readonly Added[]): string {
  const json = readJson(join(from, 'tokenizer.json'));
  json.added_tokens = [
    ...(json.added_tokens as unknown[]),
    ...added.map((t) => ({ id: t.id, content: t.content, single_word: false, lstrip: t.lstrip ?? false, rstrip: t.rstrip ?? false, normalized: t.normalized ?? !(t.special ?? false), special: t.special ?? false })),
  ];
  const dir = join(root, `oracle${n++}`);
  cpSync(from, dir, { recursive: true });
  writeJson(join(dir, 'tokenizer.json'), json);
  return dir;
}

async function tokenizerOf(dir: string, embeddingRows?: number) {
  const files = await findTokenClassFiles(dir, {}, { graphPath: 'unused' });
  const config = readJson(files.config) as TokenClassConfig;
  return loadTextTokenizer(files, config, embeddingRows !== undefined ? { embeddingRows } : {});
}

async function expectSameTokens(dir: string, oracle: string, texts: readonly string[] = TEXTS) {
  const ours = await tokenizerOf(dir);
  const theirs = await tokenizerOf(oracle);
  expect(ours.engine).toBe('tokenizers');
  expect(await ours.encode(texts, true)).toEqual(await theirs.encode(texts, true));
  return ours;
}

/** Renames `[CLS]` and `[SEP]` in `dir`'s vocab.txt to `[START]` and `[END]` (same ids). */
function renameClsSep(dir: string): void {
  const vocab = readFileSync(join(dir, 'vocab.txt'), 'utf8').split('\n');
  writeFileSync(join(dir, 'vocab.txt'), vocab.map((t) => (t === '[CLS]' ? '[START]' : t === '[SEP]' ? '[END]' : t)).join('\n'));
}

/** BERT's conformance repo served from vocab.txt (tokenizer.json removed). */
function bertFromVocab(edit: (dir: string) => void): string {
  return folder(BERT, edit);
}

describe('added tokens of a repo without tokenizer.json', () => {
  it('vocab.txt + added_tokens.json: the added tokens stay whole (matched on the lower-cased text), as in the tokenizer.json transformers would save', async () => {
    const added: Added[] = [
      { id: 30522, content: '[ENT]' },
      { id: 30523, content: 'covid19' },
    ];
    const dir = bertFromVocab((d) => writeJson(join(d, 'added_tokens.json'), { '[ENT]': 30522, covid19: 30523 }));
    const ours = await expectSameTokens(dir, savedTokenizerJson(BERT, added));
    const [first, second] = await ours.encode(TEXTS.slice(0, 2), false);
    expect(first.ids).toContain(30522);
    expect(first.ids).toContain(30523);
    expect(second.ids.filter((id) => id === 30522)).toHaveLength(2);
    // Before: the added tokens were not read, and "[ENT]" came out as its WordPiece pieces.
    const plain = await tokenizerOf(bertFromVocab(() => undefined));
    expect(plain.engine).toBe('wordpiece');
    const [before] = await plain.encode(TEXTS.slice(0, 1), false);
    expect(before.ids.some((id) => id >= 30522)).toBe(false);
    expect(before.ids.length).toBeGreaterThan(first.ids.length);
  });

  it('a token named special (tokenizer_config.json or special_tokens_map.json) matches the raw text only (not lower-cased)', async () => {
    const dir = bertFromVocab((d) => {
      writeJson(join(d, 'added_tokens.json'), { '<E>': 30522, '<F>': 30523 });
      writeJson(join(d, 'special_tokens_map.json'), { additional_special_tokens: ['<F>'] });
      editJson(join(d, 'tokenizer_config.json'), (c) => void (c.bos_token = '<E>'));
    });
    const texts = ['a <E> b <e> c <F> d <f>'];
    const ours = await expectSameTokens(
      dir,
      savedTokenizerJson(BERT, [
        { id: 30522, content: '<E>', special: true },
        { id: 30523, content: '<F>', special: true },
      ]),
      texts,
    );
    const [e] = await ours.encode(texts, false);
    expect(e.ids.filter((id) => id >= 30522)).toEqual([30522, 30523]);
  });

  it('added_tokens_decoder entries past the vocabulary keep their flags (lstrip, normalized); the special tokens it lists are left as they are', async () => {
    const added: Added[] = [{ id: 30522, content: '[ENT]', lstrip: true, normalized: false }];
    const dir = bertFromVocab((d) => {
      editJson(join(d, 'tokenizer_config.json'), (c) => {
        c.added_tokens_decoder = {
          '0': { content: '[PAD]', lstrip: false, normalized: false, rstrip: false, single_word: false, special: true },
          '101': { content: '[CLS]', lstrip: false, normalized: false, rstrip: false, single_word: false, special: true },
          '30522': { content: '[ENT]', lstrip: true, normalized: false, rstrip: false, single_word: false, special: false },
        };
      });
    });
    await expectSameTokens(dir, savedTokenizerJson(BERT, added), [...TEXTS, 'x [ent] y']);
    // A special token the vocabulary has at another id keeps the vocabulary's (the class's) id, as before.
    const elsewhere = bertFromVocab((d) => {
      editJson(join(d, 'tokenizer_config.json'), (c) => void (c.added_tokens_decoder = { '5': { content: '[CLS]', special: true }, '30522': { content: '[ENT]', special: false } }));
    });
    const [first] = await (await tokenizerOf(elsewhere)).encode(['[ENT] berlin'], false);
    expect(first.ids[0]).toBe(101);
    expect(first.ids).toContain(30522);
    // Only the specials, already at their ids: the synchronous WordPiece engine still runs.
    const specialsOnly = bertFromVocab((d) => {
      editJson(join(d, 'tokenizer_config.json'), (c) => void (c.added_tokens_decoder = { '101': { content: '[CLS]', special: true } }));
    });
    expect((await tokenizerOf(specialsOnly)).engine).toBe('wordpiece');
  });

  it('RoBERTa from vocab.json + merges.txt takes its added_tokens.json too', async () => {
    const size = (readJson(join(ROBERTA, 'tokenizer.json')).model as { vocab: Record<string, number> }).vocab;
    const next = Math.max(...Object.values(size)) + 1;
    const dir = folder(
      ROBERTA,
      (d) => {
        toVocabMergesFolder(d);
        writeJson(join(d, 'added_tokens.json'), { '[ENT]': next });
        editJson(join(d, 'config.json'), (c) => void (c.vocab_size = next + 1));
      },
      true,
    );
    await expectSameTokens(dir, savedTokenizerJson(ROBERTA, [{ id: next, content: '[ENT]' }]));
  });

  it('DeBERTa-v3 from spm.model: an added_tokens_decoder that lists the special tokens and one more adds that one', async () => {
    const shipped = readJson(join(DEBERTA, 'tokenizer.json')) as { model: { vocab: Array<[string, number]>; unk_id: number } };
    const next = shipped.model.vocab.length;
    const flags = { lstrip: false, rstrip: false, single_word: false };
    const dir = folder(DEBERTA, (d) => {
      writeFileSync(join(d, 'spm.model'), writeSentencePieceModel({ pieces: piecesOfUnigram(shipped, ['[MASK]']), unkId: shipped.model.unk_id }));
      const specials = Object.fromEntries(['[PAD]', '[CLS]', '[SEP]', '[UNK]', '[MASK]'].map((content, id) => [String(id), { content, normalized: false, special: true, ...flags }]));
      editJson(join(d, 'tokenizer_config.json'), (c) => void (c.added_tokens_decoder = { ...specials, [String(next)]: { content: '[ENT]', normalized: false, special: false, ...flags } }));
      editJson(join(d, 'config.json'), (c) => void (c.vocab_size = next + 1));
    });
    const ours = await expectSameTokens(dir, savedTokenizerJson(DEBERTA, [{ id: next, content: '[ENT]', normalized: false }]));
    const [e] = await ours.encode(TEXTS.slice(0, 1), false);
    expect(e.ids).toContain(next);
  });

  it('special_tokens_map.json names the special tokens tokenizer_config.json leaves out (here a vocabulary whose [CLS] and [SEP] are [START] and [END])', async () => {
    // The set's tokenizer_config.json names [CLS] and [SEP]: here it names neither, as older repos' files did.
    const renamed = (d: string) => {
      renameClsSep(d);
      editJson(join(d, 'tokenizer_config.json'), (c) => {
        delete c.cls_token;
        delete c.sep_token;
      });
    };
    const dir = bertFromVocab((d) => {
      renamed(d);
      writeJson(join(d, 'special_tokens_map.json'), { cls_token: '[START]', sep_token: { content: '[END]', lstrip: false, normalized: false, rstrip: false, single_word: false } });
    });
    const texts = ['Angela Merkel visited Paris.', ''];
    const ours = await tokenizerOf(dir);
    const original = await tokenizerOf(bertFromVocab(() => undefined));
    expect(await ours.encode(texts, true)).toEqual(await original.encode(texts, true));
    // Without the map, the class's default names are looked for, and the load fails naming the missing one.
    const noMap = bertFromVocab(renamed);
    await expect(tokenizerOf(noMap)).rejects.toMatchObject({ message: expect.stringMatching(/lacks \[CLS\]/) });
  });

  it('special_tokens_map.json as transformers 5.18 (KServe\'s recorded server) reads it: over an older tokenizer_config.json\'s own special tokens; not at all beside a config with added_tokens_decoder', async () => {
    const texts = ['Angela Merkel visited Paris.', ''];
    const original = await tokenizerOf(bertFromVocab(() => undefined));
    // The set's tokenizer_config.json has no added_tokens_decoder, and names [CLS] and [SEP], which this vocabulary
    // calls [START] and [END]: the map's names win (with the config's, the load fails: it lacks [CLS]).
    const older = bertFromVocab((d) => {
      renameClsSep(d);
      writeJson(join(d, 'special_tokens_map.json'), { cls_token: '[START]', sep_token: '[END]' });
    });
    expect(await (await tokenizerOf(older)).encode(texts, true)).toEqual(await original.encode(texts, true));
    // A config saved with added_tokens_decoder is read alone: the map's [START] is never looked at, the class's default
    // [CLS] is looked for, and the load fails naming it.
    const decoder = bertFromVocab((d) => {
      renameClsSep(d);
      writeJson(join(d, 'special_tokens_map.json'), { cls_token: '[START]', sep_token: '[END]' });
      editJson(join(d, 'tokenizer_config.json'), (c) => {
        delete c.cls_token;
        delete c.sep_token;
        c.added_tokens_decoder = { '0': { content: '[PAD]', lstrip: false, normalized: false, rstrip: false, single_word: false, special: true } };
      });
    });
    await expect(tokenizerOf(decoder)).rejects.toMatchObject({ message: expect.stringMatching(/lacks \[CLS\]/) });
  });

  it('a tokenizer.json is taken as it is: an added_tokens.json beside it changes nothing', async () => {
    const dir = folder(BERT, (d) => writeJson(join(d, 'added_tokens.json'), { '[ENT]': 30522 }), true);
    const ours = await tokenizerOf(dir);
    const [e] = await ours.encode(TEXTS.slice(0, 1), false);
    expect(e.ids.some((id) => id >= 30522)).toBe(false);
  });

  it('bad added tokens fail naming the file, the token and the ids; none is dropped silently', async () => {
    const gap = bertFromVocab((d) => writeJson(join(d, 'added_tokens.json'), { '[ENT]': 30530 }));
    await expect(tokenizerOf(gap)).rejects.toMatchObject({ code: 'model_load_failed', message: expect.stringMatching(/added_tokens\.json: the added token "\[ENT\]" has id 30530, and the next free id of the tokenizer is 30522/) });
    const moved = bertFromVocab((d) => writeJson(join(d, 'added_tokens.json'), { paris: 30522 }));
    await expect(tokenizerOf(moved)).rejects.toMatchObject({ message: expect.stringMatching(/"paris" has id 30522, and the tokenizer already has it at id \d+/) });
    const notNumber = bertFromVocab((d) => writeJson(join(d, 'added_tokens.json'), { '[ENT]': '30522' }));
    await expect(tokenizerOf(notNumber)).rejects.toMatchObject({ message: expect.stringMatching(/added_tokens\.json: each entry must be a non-empty token → a non-negative integer id, got "\[ENT\]": "30522"/) });
    const notObject = bertFromVocab((d) => writeFileSync(join(d, 'added_tokens.json'), '["[ENT]"]'));
    await expect(tokenizerOf(notObject)).rejects.toMatchObject({ message: expect.stringMatching(/added_tokens\.json must hold a JSON object, got an array/) });
    const badDecoder = bertFromVocab((d) => {
      editJson(join(d, 'tokenizer_config.json'), (c) => void (c.added_tokens_decoder = { x: { content: '[ENT]' } }));
    });
    await expect(tokenizerOf(badDecoder)).rejects.toMatchObject({ message: expect.stringMatching(/tokenizer_config\.json: added_tokens_decoder\["x"\] must be a non-negative id/) });
  });

  it('an added id past the model\'s word embedding fails naming both sizes', async () => {
    const dir = bertFromVocab((d) => writeJson(join(d, 'added_tokens.json'), { '[ENT]': 30522 }));
    await expect(tokenizerOf(dir, 30522)).rejects.toMatchObject({ code: 'model_load_failed', message: expect.stringMatching(/added_tokens\.json: the tokenizer has 30523 token ids, the model's word embedding \(config\.json vocab_size\) 30522 rows/) });
  });

  it('the hub download takes added_tokens.json and special_tokens_map.json beside the tokenizer files', async () => {
    const repo = ['config.json', 'vocab.txt', 'added_tokens.json', 'special_tokens_map.json', 'README.md'];
    const s = selectFiles(TOKEN_CLASSIFICATION_SIDE_FILES, (p) => repo.includes(p));
    expect(s.chosen).toEqual(expect.arrayContaining(['config.json', 'vocab.txt', 'added_tokens.json', 'special_tokens_map.json']));
    expect(s.chosen).not.toContain('README.md');
  });
});
