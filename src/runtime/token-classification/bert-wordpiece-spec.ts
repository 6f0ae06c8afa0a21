import { readFile } from 'node:fs/promises';
import type { AddedTokenSpec, BertWordPieceSpec } from './bert-wordpiece.js';
import { specialTokenText } from './model-files.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The BertNormalizer flags of a `tokenizer.json`, or undefined when it is not exactly one. */
function normalizerFlags(n: unknown): BertWordPieceSpec['normalizer'] | undefined {
  if (!isObject(n) || n.type !== 'BertNormalizer') {
    return undefined;
  }
  const flag = (v: unknown, fallback: boolean): boolean | undefined => (v === undefined || v === null ? fallback : typeof v === 'boolean' ? v : undefined);
  const cleanText = flag(n.clean_text, true);
  const handleChineseChars = flag(n.handle_chinese_chars, true);
  const lowercase = flag(n.lowercase, true);
  // strip_accents unset follows lowercase.
  const stripAccents = lowercase === undefined ? undefined : flag(n.strip_accents, lowercase);
  if (cleanText === undefined || handleChineseChars === undefined || lowercase === undefined || stripAccents === undefined) {
    return undefined;
  }
  return { cleanText, handleChineseChars, stripAccents, lowercase };
}

/** Prefix and suffix special ids of a `[CLS] $A [SEP]`-shaped post-processor; undefined if unsupported. */
function postProcessorIds(p: unknown): { prefixIds: number[]; suffixIds: number[] } | undefined {
  if (p === null || p === undefined) {
    return { prefixIds: [], suffixIds: [] };
  }
  if (!isObject(p)) {
    return undefined;
  }
  if (p.type === 'BertProcessing') {
    const id = (v: unknown): number | undefined => (Array.isArray(v) && Number.isInteger(v[1]) ? (v[1] as number) : undefined);
    const cls = id(p.cls);
    const sep = id(p.sep);
    return cls === undefined || sep === undefined ? undefined : { prefixIds: [cls], suffixIds: [sep] };
  }
  if (p.type !== 'TemplateProcessing' || !Array.isArray(p.single) || !isObject(p.special_tokens)) {
    return undefined;
  }
  const specials = p.special_tokens;
  const out = { prefixIds: [] as number[], suffixIds: [] as number[] };
  let seenSequence = false;
  for (const piece of p.single as unknown[]) {
    if (isObject(piece) && isObject(piece.Sequence) && piece.Sequence.id === 'A' && !seenSequence) {
      seenSequence = true;
      continue;
    }
    const name = isObject(piece) && isObject(piece.SpecialToken) ? piece.SpecialToken.id : undefined;
    const entry = typeof name === 'string' ? specials[name] : undefined;
    if (!isObject(entry) || !Array.isArray(entry.ids) || !entry.ids.every((i) => Number.isInteger(i))) {
      return undefined;
    }
    (seenSequence ? out.suffixIds : out.prefixIds).push(...(entry.ids as number[]));
  }
  return seenSequence ? out : undefined;
}

/** Added tokens we can match: raw-text (`normalized: false`), not `single_word`. */
function addedTokenSpecs(list: unknown): AddedTokenSpec[] | undefined {
  if (list === undefined || list === null) {
    return [];
  }
  if (!Array.isArray(list)) {
    return undefined;
  }
  const out: AddedTokenSpec[] = [];
  for (const t of list as unknown[]) {
    if (!isObject(t) || typeof t.content !== 'string' || !Number.isInteger(t.id) || t.normalized === true || t.single_word === true) {
      return undefined;
    }
    out.push({ content: t.content, id: t.id as number, lstrip: t.lstrip === true, rstrip: t.rstrip === true });
  }
  return out;
}

/**
 * The {@link BertWordPieceSpec} of a parsed `tokenizer.json` when it is exactly a BERT pipeline we
 * reproduce (BertNormalizer, BertPreTokenizer, WordPiece, `[CLS] $A [SEP]` TemplateProcessing or
 * BertProcessing or none, raw-text added tokens); otherwise a reason why not.
 */
export function bertSpecFromTokenizerJson(json: Json): BertWordPieceSpec | string {
  const normalizer = normalizerFlags(json.normalizer);
  if (!normalizer) {
    return 'the normalizer is not a BertNormalizer';
  }
  if (!isObject(json.pre_tokenizer) || json.pre_tokenizer.type !== 'BertPreTokenizer' || Object.keys(json.pre_tokenizer).length !== 1) {
    return 'the pre-tokenizer is not a BertPreTokenizer';
  }
  const model = json.model;
  if (!isObject(model) || model.type !== 'WordPiece' || !isObject(model.vocab) || typeof model.unk_token !== 'string') {
    return 'the model is not WordPiece';
  }
  const vocab = new Map<string, number>();
  for (const [token, id] of Object.entries(model.vocab)) {
    if (!Number.isInteger(id)) {
      return 'the WordPiece vocabulary has a non-integer id';
    }
    vocab.set(token, id as number);
  }
  const unkId = vocab.get(model.unk_token);
  const prefix = model.continuing_subword_prefix ?? '##';
  const maxChars = model.max_input_chars_per_word ?? 100;
  if (unkId === undefined || typeof prefix !== 'string' || !Number.isInteger(maxChars)) {
    return 'the WordPiece unknown token, prefix or word length is not usable';
  }
  const post = postProcessorIds(json.post_processor);
  if (!post) {
    return 'the post-processor is not [CLS] $A [SEP]-shaped';
  }
  const addedTokens = addedTokenSpecs(json.added_tokens);
  if (!addedTokens) {
    return 'an added token is normalised or single-word';
  }
  return { vocab, unkId, prefix, maxInputCharsPerWord: maxChars as number, normalizer, addedTokens, ...post };
}

/** Token → id of a `vocab.txt` (one token per line, trailing whitespace trimmed; a repeated token keeps its last line). */
export async function readVocabTxt(path: string): Promise<Map<string, number>> {
  const lines = (await readFile(path, 'utf8')).split('\n');
  if (lines.at(-1) === '') {
    lines.pop();
  }
  const vocab = new Map<string, number>();
  lines.forEach((line, id) => vocab.set(line.replace(/\p{White_Space}+$/u, ''), id));
  return vocab;
}

/**
 * The spec of the BERT tokenizer `loadTextTokenizer` builds from `vocab.txt` and
 * `tokenizer_config.json` (prefix `##`, 100 characters per word, `[CLS] $A [SEP]`, the special
 * tokens present in the vocabulary matched in raw text); a reason when a needed token is missing.
 */
export function bertSpecFromVocab(vocab: ReadonlyMap<string, number>, tc: Record<string, unknown>, lowercase: boolean): BertWordPieceSpec | string {
  const unk = specialTokenText(tc.unk_token, '[UNK]');
  const cls = specialTokenText(tc.cls_token, '[CLS]');
  const sep = specialTokenText(tc.sep_token, '[SEP]');
  const [unkId, clsId, sepId] = [unk, cls, sep].map((t) => vocab.get(t));
  if (unkId === undefined || clsId === undefined || sepId === undefined) {
    return 'the vocabulary lacks the unknown, [CLS] or [SEP] token';
  }
  const specials = [unk, cls, sep, specialTokenText(tc.pad_token, '[PAD]'), specialTokenText(tc.mask_token, '[MASK]')];
  const addedTokens = specials.flatMap((content) => {
    const id = vocab.get(content);
    return id === undefined ? [] : [{ content, id, lstrip: false, rstrip: false }];
  });
  const stripAccents = typeof tc.strip_accents === 'boolean' ? tc.strip_accents : lowercase;
  const handleChineseChars = typeof tc.tokenize_chinese_chars === 'boolean' ? tc.tokenize_chinese_chars : true;
  return {
    vocab,
    unkId,
    prefix: '##',
    maxInputCharsPerWord: 100,
    normalizer: { cleanText: true, handleChineseChars, stripAccents, lowercase },
    addedTokens,
    prefixIds: [clsId],
    suffixIds: [sepId],
  };
}
