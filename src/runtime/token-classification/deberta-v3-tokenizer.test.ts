import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import tokenizers from 'tokenizers';
import { describe, expect, it } from 'vitest';
import { loadTextTokenizer } from './load-text-tokenizer.js';

// DeBERTa-v3's SentencePiece Unigram tokenizer.json (the kserve-hf-deberta-v3 set) under KServe's lower-casing:
// transformers' DebertaV2Tokenizer puts Lowercase before the file's normalisers, which changes a few texts
// ("T\u0308\u0301", "\u1FBC\u0301": lower-cased then composed is not composed then lower-cased).
const DIR = join(process.cwd(), '../shared/conformance/kserve-hf-deberta-v3/model');
const files = { dir: DIR, config: join(DIR, 'config.json'), model: '', tokenizerJson: join(DIR, 'tokenizer.json'), vocabTxt: undefined, tokenizerConfig: join(DIR, 'tokenizer_config.json') };
const config = { max_position_embeddings: 512 };
const json = JSON.parse(readFileSync(join(DIR, 'tokenizer.json'), 'utf8')) as { normalizer: { normalizers: unknown[] } };

async function idsWithLowercase(at: 'first' | 'last', text: string): Promise<number[]> {
  const steps = json.normalizer.normalizers;
  const normalizers = at === 'first' ? [{ type: 'Lowercase' }, ...steps] : [...steps, { type: 'Lowercase' }];
  const t = tokenizers.Tokenizer.fromString(JSON.stringify({ ...json, normalizer: { type: 'Sequence', normalizers } }));
  return (await t.encode(text)).getIds();
}

describe('DeBERTa-v3 tokenizer with KServe defaults', () => {
  it('lower-cases first, as KServe\'s do_lower_case=True does, where the order changes the pieces', async () => {
    const tok = await loadTextTokenizer(files, config, { disableLowerCase: false });
    expect(tok).toMatchObject({ lowercase: true, lowercaseSource: 'option', engine: 'tokenizers', maxLength: 512 });
    const text = 'T\u0308\u0301 and \u1FBC\u0301stan Word';
    const [ours] = await tok.encode([text], true);
    const first = await idsWithLowercase('first', text);
    expect(first).not.toEqual(await idsWithLowercase('last', text));
    expect(ours.ids).toEqual(first);
    expect(ours.codePointOffsets.at(-2)?.[1]).toBe([...text].length); // offsets still point into the original text
  });

  it('keeps case with --disable_lower_case and, in-kernel without the option, as tokenizer_config.json says (do_lower_case false)', async () => {
    const plain = tokenizers.Tokenizer.fromString(JSON.stringify(json));
    const text = 'Angela Merkel visited Paris';
    const expected = (await plain.encode(text)).getIds();
    for (const options of [{ disableLowerCase: true }, {}]) {
      const tok = await loadTextTokenizer(files, config, options);
      expect(tok.lowercase).toBe(false);
      expect((await tok.encode([text], false))[0].ids).toEqual(expected);
    }
  });
});
