import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTextTokenizer } from './load-text-tokenizer.js';
import type { TokenClassFiles } from './model-files.js';
import { tokenizerAbortProblem } from './tokenizer-json-aborts.js';

const SETS = join(process.cwd(), '../shared/conformance');
/** Byte-level BPE with a RobertaProcessing post-processor. */
const ROBERTA = join(SETS, 'kserve-hf-roberta/model/tokenizer.json');
/** Unigram with a TemplateProcessing post-processor. */
const XLMR = join(SETS, 'kserve-hf-xlmr/model/tokenizer.json');
const root = mkdtempSync(join(tmpdir(), 'inferkit-aborts-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The parts of a tokenizer.json these tests edit. */
interface TokenizerJson {
  post_processor: { special_tokens: Record<string, unknown> } | Record<string, unknown>;
  model: { continuing_subword_prefix?: string };
}

/** A set's tokenizer.json (`from`), edited by `edit`, written under `name`; a repo's files holding only it. */
function edited(name: string, from: string, edit: (json: TokenizerJson) => void): { path: string; files: TokenClassFiles } {
  const json = JSON.parse(readFileSync(from, 'utf8')) as TokenizerJson;
  edit(json);
  const path = join(root, `${name}.json`);
  writeFileSync(path, JSON.stringify(json));
  return { path, files: { dir: root, config: '', model: '', tokenizerJson: path, vocabTxt: undefined, tokenizerConfig: undefined } };
}

const config = { model_type: 'roberta', max_position_embeddings: 514 };
const xlmr = { model_type: 'xlm-roberta', max_position_embeddings: 514 };

describe('tokenizer.json parts tokenizers would abort the process on: an error naming the file and the field', () => {
  it('leaves the sets\' own files alone', () => {
    for (const set of ['kserve-hf', 'kserve-hf-distilbert', 'kserve-hf-roberta', 'kserve-hf-xlmr', 'kserve-hf-deberta-v3']) {
      expect(tokenizerAbortProblem(JSON.parse(readFileSync(join(SETS, set, 'model/tokenizer.json'), 'utf8')) as Record<string, unknown>), set).toBeUndefined();
    }
  });

  it('refuses a template whose single sequence names a special token the post-processor does not define (tokenizers panics on the first text)', async () => {
    const { path, files } = edited('template', XLMR, (j) => {
      delete (j.post_processor as { special_tokens: Record<string, unknown> }).special_tokens['</s>'];
    });
    await expect(loadTextTokenizer(files, xlmr, {})).rejects.toThrow(`Could not load the tokenizer ${path}: post_processor.single names the special token "</s>", which post_processor.special_tokens lacks`);
    // Inside a Sequence of post-processors too.
    const nested = edited('template-seq', XLMR, (j) => {
      delete (j.post_processor as { special_tokens: Record<string, unknown> }).special_tokens['<s>'];
      j.post_processor = { type: 'Sequence', processors: [{ type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true }, j.post_processor] };
    });
    await expect(loadTextTokenizer(nested.files, xlmr, {})).rejects.toThrow(/post_processor\.processors\[1\]\.single names the special token "<s>"/);
  });

  it('refuses a BPE merge shorter than the continuing-subword prefix (tokenizers panics at load)', async () => {
    const { path, files } = edited('bpe-prefix', ROBERTA, (j) => {
      j.model.continuing_subword_prefix = '##';
    });
    const first = (JSON.parse(readFileSync(ROBERTA, 'utf8')) as { model: { merges: Array<[string, string] | string> } }).model.merges.findIndex((m) => Buffer.byteLength(Array.isArray(m) ? m[1] : m.split(' ')[1]) < 2);
    await expect(loadTextTokenizer(files, config, {})).rejects.toThrow(new RegExp(`Could not load the tokenizer ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: model\\.merges\\[${first}\\] joins ".*", shorter than model\\.continuing_subword_prefix "##"`));
  });
});
