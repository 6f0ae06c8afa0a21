import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { precompiledCharsmap, writeSentencePieceModel } from '../../../../test/fixtures/sentencepiece-writer.js';
import { loadTextTokenizer } from '../load-text-tokenizer.js';
import type { TokenClassFiles } from '../model-files.js';
import { tokenizerAbortProblem } from '../tokenizer-json-aborts.js';
import { precompiledCharsmapProblem } from './precompiled-charsmap.js';

const root = mkdtempSync(join(tmpdir(), 'inferkit-charsmap-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A repo's files: only the tokenizer given (loadTextTokenizer reads nothing else). */
function files(tokenizer: { tokenizerJson?: string; spmModel?: string }): TokenClassFiles {
  return { dir: root, config: '', model: '', tokenizerJson: undefined, vocabTxt: undefined, tokenizerConfig: undefined, ...tokenizer };
}

/** `bytes` with its 32-bit unit `i` (after the 4-byte size) set to `value`. */
function withUnit(bytes: Uint8Array, i: number, value: number): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setUint32(4 + i * 4, value >>> 0, true);
  return copy;
}

describe('precompiledCharsmapProblem: a charsmap tokenizers would abort the process on', () => {
  const good = precompiledCharsmap({ '\uFB01': 'fi', 'é': 'é', '\uFF21': 'A' });

  it('passes a charsmap as sentencepiece compiles it', () => {
    expect(precompiledCharsmapProblem(good)).toBeUndefined();
  });

  it('names what is wrong with its layout', () => {
    expect(precompiledCharsmapProblem(new Uint8Array([1, 2, 3]))).toBe('3 bytes, fewer than its 4-byte trie size');
    expect(precompiledCharsmapProblem(new Uint8Array([1, 2, 3, 250, 0]))).toMatch(/^a trie of \d+ bytes in 1 bytes$/);
    expect(precompiledCharsmapProblem(new Uint8Array(4))).toBe('an empty trie');
    const units = new DataView(good.buffer).getUint32(0, true) / 4;
    const badText = good.slice();
    badText[4 + units * 4] = 0xff;
    expect(precompiledCharsmapProblem(badText)).toBe('replacements that are not UTF-8');
  });

  it('follows every walk a text can make: a child past the trie, a value past it, a replacement starting inside a character', () => {
    // The root's unit: offset 0x40000 blocks away (past the trie) — every first byte's entry is out of range.
    expect(precompiledCharsmapProblem(withUnit(good, 0, (0x40000 << 10) >>> 0))).toMatch(/^a trie entry \d+ past its \d+ units$/);
    // The ligature's last node keeps its leaf, but its value entry is moved out of the trie.
    const units = new DataView(good.buffer).getUint32(0, true) / 4;
    const view = new DataView(good.buffer);
    let leaf = -1;
    for (let i = 0; i < units && leaf < 0; i++) {
      const u = view.getUint32(4 + i * 4, true);
      if (((u >>> 8) & 1) === 1 && (u & 0x800000ff) >>> 0 !== 0) {
        leaf = i;
      }
    }
    const u = view.getUint32(4 + leaf * 4, true);
    expect(precompiledCharsmapProblem(withUnit(good, leaf, (0x10000 << 10) | (u & 0x1ff)))).toMatch(/^a trie value entry \d+ past its \d+ units$/);
    // A value unit pointing at the second byte of `é` (2 bytes) in the replacements.
    const valueAt = leaf ^ ((u >>> 10) * ((u & 0x200) !== 0 ? 256 : 1));
    const replacements = good.subarray(4 + units * 4);
    const inside = replacements.findIndex((b) => (b & 0xc0) === 0x80);
    expect(precompiledCharsmapProblem(withUnit(good, valueAt, (0x80000000 | inside) >>> 0))).toBe(`a replacement starting at byte ${inside} of ${replacements.length}, not at a character`);
  });

  it('checks a tokenizer.json normaliser at any depth of its Sequence, naming where', () => {
    const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
    const problem = (normalizer: unknown) => tokenizerAbortProblem({ normalizer });
    expect(problem({ type: 'Sequence', normalizers: [{ type: 'NFC' }, { type: 'Precompiled', precompiled_charsmap: b64(good) }] })).toBeUndefined();
    expect(problem({ type: 'Precompiled', precompiled_charsmap: null })).toBe('normalizer.precompiled_charsmap is null, not a base64 string');
    expect(problem({ type: 'Precompiled', precompiled_charsmap: 'not base64!' })).toBe('normalizer.precompiled_charsmap is not base64');
    expect(problem({ type: 'Sequence', normalizers: [{ type: 'NFC' }, { type: 'Sequence', normalizers: [{ type: 'Precompiled', precompiled_charsmap: '' }] }] })).toBe(
      'normalizer.normalizers[1].normalizers[0].precompiled_charsmap holds 0 bytes, fewer than its 4-byte trie size',
    );
  });
});

describe('loadTextTokenizer with a charsmap tokenizers cannot read: an error naming the file, and the process lives on', () => {
  // A model type whose class builds no pipeline of its own: the file's normaliser as written.
  const config = { model_type: 'albert', max_position_embeddings: 512 };
  const xlmr = { model_type: 'xlm-roberta', max_position_embeddings: 514 };
  const unigram = { type: 'Unigram', unk_id: 0, vocab: [['<unk>', 0], ['▁a', -1]], byte_fallback: false };

  it('refuses a tokenizer.json whose Precompiled normaliser is null, empty or cut short', async () => {
    for (const [name, charsmap] of [['null', null], ['empty', ''], ['short', Buffer.from([1, 2, 3, 250, 0]).toString('base64')]] as const) {
      const path = join(root, `tokenizer-${name}.json`);
      writeFileSync(path, JSON.stringify({ version: '1.0', added_tokens: [], normalizer: { type: 'Sequence', normalizers: [{ type: 'Precompiled', precompiled_charsmap: charsmap }] }, pre_tokenizer: null, post_processor: null, decoder: null, model: unigram }));
      await expect(loadTextTokenizer(files({ tokenizerJson: path }), config, {})).rejects.toThrow(
        new RegExp(`Could not load the tokenizer ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: normalizer\\.normalizers\\[0\\]\\.precompiled_charsmap`),
      );
    }
  });

  it('refuses an XLM-R sentencepiece.bpe.model whose charsmap is cut short', async () => {
    const path = join(root, 'sentencepiece.bpe.model');
    const pieces = [{ piece: '<unk>', score: 0, type: 2 }, { piece: '<s>', score: 0, type: 3 }, { piece: '</s>', score: 0, type: 3 }, { piece: '▁a', score: -1 }];
    writeFileSync(path, writeSentencePieceModel({ pieces, charsmap: new Uint8Array([8, 0, 0, 0, 1]) }));
    await expect(loadTextTokenizer(files({ spmModel: path }), xlmr, {})).rejects.toMatchObject({
      code: 'model_load_failed',
      message: expect.stringContaining(`${path}: normalizer.precompiled_charsmap holds a trie of 8 bytes in 1 bytes`),
    });
  });
});
