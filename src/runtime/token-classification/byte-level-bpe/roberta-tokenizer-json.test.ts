import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toVocabMergesFolder } from '../../../../test/fixtures/roberta-vocab-merges.js';
import { loadTextTokenizer } from '../load-text-tokenizer.js';
import { findTokenClassFiles } from '../model-files.js';
import { robertaTokenizerJson } from './roberta-tokenizer-json.js';

// RoBERTa repos whose tokenizer is vocab.json + merges.txt (no tokenizer.json): the tokenizer.json transformers' RobertaTokenizer
// makes of them is the one the conformance set's tokenizer.json (saved by that class) holds; bad files fail naming the line.
const SET = join(process.cwd(), '../shared/conformance/kserve-hf-roberta/model');
const root = mkdtempSync(join(tmpdir(), 'inferkit-bpe-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
function folder(edit?: (dir: string) => void): string {
  const dir = join(root, `m${n++}`);
  cpSync(SET, dir, { recursive: true });
  toVocabMergesFolder(dir);
  edit?.(dir);
  return dir;
}
const tokConfigOf = (dir: string): Record<string, unknown> => JSON.parse(readFileSync(join(dir, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;

describe('robertaTokenizerJson (vocab.json + merges.txt)', () => {
  it('builds the tokenizer.json RobertaTokenizer saved for the set: vocabulary, merges, pipeline and special tokens', async () => {
    const dir = folder();
    const original = JSON.parse(readFileSync(join(SET, 'tokenizer.json'), 'utf8')) as Record<string, unknown>;
    // The set's file keeps `<mask>` without lstrip (as trained); transformers 5 writes such flags to added_tokens_decoder.
    const decoder = Object.fromEntries((original.added_tokens as Array<Record<string, unknown>>).map((t) => [String(t.id), t]));
    const built = await robertaTokenizerJson(join(dir, 'vocab.json'), join(dir, 'merges.txt'), { ...tokConfigOf(dir), added_tokens_decoder: decoder });
    for (const key of ['model', 'normalizer', 'pre_tokenizer', 'post_processor', 'decoder', 'added_tokens']) {
      expect(built[key], key).toEqual(original[key]);
    }
    // Without added_tokens_decoder, the class's default: `<mask>` takes the spaces before it.
    const plain = await robertaTokenizerJson(join(dir, 'vocab.json'), join(dir, 'merges.txt'), tokConfigOf(dir));
    expect((plain.added_tokens as Array<Record<string, unknown>>).find((t) => t.content === '<mask>')).toMatchObject({ id: 4, lstrip: true });
  });

  it('tokenizes as the set\'s tokenizer.json does, and gives the special tokens a vocabulary lacks the ids after it', async () => {
    const dir = folder();
    const files = await findTokenClassFiles(dir, {}, { graphPath: 'unused' });
    expect(files.bpeVocab).toEqual({ vocab: join(dir, 'vocab.json'), merges: join(dir, 'merges.txt') });
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    const ours = await loadTextTokenizer(files, config);
    const theirs = await loadTextTokenizer({ ...files, bpeVocab: undefined, tokenizerJson: join(SET, 'tokenizer.json') }, config);
    const texts = ['Angela Merkel visited Paris.', '  spaced   out  ', 'Ünïcödé — 東京 😀', ''];
    expect(await ours.encode(texts, true)).toEqual(await theirs.encode(texts, true));
    expect(ours.lowercaseSource).toBe('vocab.json');
    const vocab = JSON.parse(readFileSync(join(dir, 'vocab.json'), 'utf8')) as Record<string, number>;
    const size = Object.keys(vocab).length;
    delete vocab['<mask>'];
    writeFileSync(join(dir, 'vocab.json'), JSON.stringify(vocab));
    const built = await robertaTokenizerJson(join(dir, 'vocab.json'), join(dir, 'merges.txt'), {});
    expect((built.added_tokens as Array<Record<string, unknown>>).find((t) => t.content === '<mask>')).toMatchObject({ id: size });
  });

  it('reads a vocabulary of 300,000 tokens (larger than a spread of arguments can hold)', async () => {
    const dir = join(root, 'big');
    mkdirSync(dir);
    const vocab = Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [`t${i}`, i]));
    writeFileSync(join(dir, 'vocab.json'), JSON.stringify(vocab));
    writeFileSync(join(dir, 'merges.txt'), '#version: 0.2\n');
    const built = await robertaTokenizerJson(join(dir, 'vocab.json'), join(dir, 'merges.txt'), {});
    expect((built.added_tokens as Array<Record<string, unknown>>).map((t) => [t.content, t.id])).toEqual([['<s>', 300_000], ['</s>', 300_001], ['<unk>', 300_002], ['<pad>', 300_003], ['<mask>', 300_004]]);
  });

  it.each([
    ['a merge line that is not two tokens', (d: string) => writeFileSync(join(d, 'merges.txt'), '#version: 0.2\nĠ t\nabc\n'), /merges\.txt: line 3 is not a merge of two tokens separated by one space \("abc"\)/],
    ['a merge of tokens the vocabulary lacks', (d: string) => writeFileSync(join(d, 'merges.txt'), '#version: 0.2\nq\u00e9 z\u00e9\n'), /merges\.txt: line 2 \("qé zé"\) needs "qé", which vocab\.json lacks/],
    ['a vocabulary that is not token → id', (d: string) => writeFileSync(join(d, 'vocab.json'), '["<s>"]'), /vocab\.json: expected an object of token → id/],
    ['a negative id', (d: string) => writeFileSync(join(d, 'vocab.json'), '{"<s>": -1}'), /vocab\.json: token "<s>" has id -1, expected a non-negative integer/],
  ])('names the file and the fault: %s', async (_what, edit, message) => {
    const dir = folder(edit);
    await expect(robertaTokenizerJson(join(dir, 'vocab.json'), join(dir, 'merges.txt'), {})).rejects.toMatchObject({ code: 'model_load_failed', message: expect.stringMatching(message) });
  });

  it('names merges.txt when vocab.json stands alone, and the model type when it is not RoBERTa\'s', async () => {
    const alone = folder((d) => rmSync(join(d, 'merges.txt')));
    await expect(findTokenClassFiles(alone, {}, { graphPath: 'unused' })).rejects.toThrow(/lacks merges\.txt \(beside vocab\.json\)/);
    const bert = folder();
    const config = { ...(JSON.parse(readFileSync(join(bert, 'config.json'), 'utf8')) as Record<string, unknown>), model_type: 'bert' };
    await expect(loadTextTokenizer(await findTokenClassFiles(bert, {}, { graphPath: 'unused' }), config)).rejects.toThrow(/reads vocab\.json \+ merges\.txt for the config\.json model_type "roberta" only, and this model's model_type is "bert"/);
  });
});
