import { readFile } from 'node:fs/promises';
import { InferkitError } from '../../../errors.js';
import { specialAddedTokens, specialTokenText, type SpecialTokenSpec } from '../model-files.js';

/** RoBERTa's special tokens in the order transformers adds them (bos, eos, unk, sep, pad, cls, mask) and their defaults: `<mask>` takes the spaces before it. */
const SPECIALS: readonly SpecialTokenSpec[] = [
  ['bos_token', '<s>'],
  ['eos_token', '</s>'],
  ['unk_token', '<unk>'],
  ['sep_token', '</s>'],
  ['pad_token', '<pad>'],
  ['cls_token', '<s>'],
  ['mask_token', '<mask>', { lstrip: true, rstrip: false }],
];

/**
 * The tokenizer.json transformers makes of a RoBERTa repo's `vocab.json` + `merges.txt` (its `RobertaTokenizer`):
 * a byte-level BPE model without unk token or subword prefix, the ByteLevel pre-tokenizer and decoder with
 * tokenizer_config.json's `add_prefix_space` (default false), `<s> $A </s>` with `trim_offsets` (default true), and
 * the special tokens — their ids from vocab.json, or after it in transformers' order when it lacks one; `<mask>` takes
 * the spaces before it unless tokenizer_config.json says otherwise. Errors name the file and the line or entry.
 */
export async function robertaTokenizerJson(vocabPath: string, mergesPath: string, tokConfig: Record<string, unknown>): Promise<Record<string, unknown>> {
  const vocab = parseVocabJson(await readText(vocabPath), vocabPath);
  const merges = parseMerges(await readText(mergesPath), mergesPath, vocab);
  const addPrefixSpace = tokConfig.add_prefix_space === true;
  const trimOffsets = tokConfig.trim_offsets !== false;
  let after = 0; // the first id past the vocabulary (a loop: spreading a large vocabulary into Math.max overflows the stack)
  for (const id of vocab.values()) {
    after = Math.max(after, id + 1);
  }
  const { added: addedTokens, ids } = specialAddedTokens(tokConfig, SPECIALS, (content) => vocab.get(content), after);
  const cls = specialTokenText(tokConfig.cls_token, '<s>');
  const sep = specialTokenText(tokConfig.sep_token, '</s>');
  const byteLevel = { type: 'ByteLevel', add_prefix_space: addPrefixSpace, trim_offsets: true, use_regex: true };
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: addedTokens,
    normalizer: null,
    pre_tokenizer: byteLevel,
    post_processor: { type: 'RobertaProcessing', sep: [sep, ids.get(sep)], cls: [cls, ids.get(cls)], trim_offsets: trimOffsets, add_prefix_space: addPrefixSpace },
    decoder: byteLevel,
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: '',
      end_of_word_suffix: '',
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab: Object.fromEntries(vocab),
      merges,
    },
  };
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (cause) {
    throw new InferkitError('model_load_failed', `Could not read ${path}: ${(cause as Error).message}`, { cause });
  }
}

/** vocab.json: an object of token → non-negative integer id. */
function parseVocabJson(text: string, path: string): Map<string, number> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new InferkitError('model_load_failed', `${path}: not valid JSON (${(cause as Error).message})`, { cause });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InferkitError('model_load_failed', `${path}: expected an object of token → id`);
  }
  const vocab = new Map<string, number>();
  for (const [token, id] of Object.entries(value)) {
    if (!Number.isSafeInteger(id) || (id as number) < 0) {
      throw new InferkitError('model_load_failed', `${path}: token ${JSON.stringify(token)} has id ${JSON.stringify(id)}, expected a non-negative integer`);
    }
    vocab.set(token, id as number);
  }
  if (vocab.size === 0) {
    throw new InferkitError('model_load_failed', `${path}: the vocabulary is empty`);
  }
  return vocab;
}

/**
 * merges.txt: a `#version` line (skipped), then one merge per line, two tokens separated by one space, in rank order;
 * each token and their concatenation must be in the vocabulary (as `tokenizers` requires). Blank lines at the end are
 * ignored; any other line that is not two tokens fails naming its line number.
 */
function parseMerges(text: string, path: string, vocab: ReadonlyMap<string, number>): Array<[string, string]> {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  while (lines.length > 0 && lines[lines.length - 1] === '') {
    lines.pop();
  }
  const merges: Array<[string, string]> = [];
  lines.forEach((line, i) => {
    if (line.startsWith('#version')) {
      return;
    }
    const parts = line.split(' ');
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '') {
      throw new InferkitError('model_load_failed', `${path}: line ${i + 1} is not a merge of two tokens separated by one space (${JSON.stringify(line.slice(0, 80))})`);
    }
    const [a, b] = parts;
    for (const t of [a, b, a + b]) {
      if (!vocab.has(t)) {
        throw new InferkitError('model_load_failed', `${path}: line ${i + 1} (${JSON.stringify(line)}) needs ${JSON.stringify(t)}, which vocab.json lacks`);
      }
    }
    merges.push([a, b]);
  });
  return merges;
}
