import tokenizers from 'tokenizers';
import type { Tokenizer } from 'tokenizers';
import { InferkitError } from '../../errors.js';
import { ADDED_TOKENS_FILE } from '../../hub/file-spec.js';
import { readJsonObjectFile, specialTokenText } from './model-files.js';

/** One added token beyond what a tokenizer's own files make (see {@link readExtraAddedTokens}). */
export interface ExtraAddedToken {
  id: number;
  content: string;
  /** Matched on the raw text, never split (the tokenizer's special tokens). */
  special: boolean;
  /** Matched on the normalised text (lower-cased where the tokenizer lower-cases) rather than the raw text. */
  normalized: boolean;
  lstrip: boolean;
  rstrip: boolean;
  singleWord: boolean;
  /** The file that lists it, for errors. */
  file: string;
}

/** The tokenizer_config.json keys whose tokens transformers counts as special (`SPECIAL_TOKENS_ATTRIBUTES`). */
export const SPECIAL_KEYS = ['bos_token', 'eos_token', 'unk_token', 'sep_token', 'pad_token', 'cls_token', 'mask_token'] as const;

/**
 * The added tokens of a repo whose tokenizer inferkit builds from `vocab.txt`, a SentencePiece model or `vocab.json`
 * (no tokenizer.json), as transformers adds them on loading: tokenizer_config.json's `added_tokens_decoder` entries
 * (id → content and flags), and `added_tokens.json` (content → id) for ids the decoder does not give, special when
 * its content is one of `tokConfig`'s special tokens (with `additional_special_tokens`; special_tokens_map.json's
 * filled in by the caller), else matched on the normalised text. Sorted by id. A malformed file fails naming it.
 */
export async function readExtraAddedTokens(
  files: { tokenizerConfig?: string | undefined; addedTokensJson?: string | undefined },
  tokConfig: Record<string, unknown>,
): Promise<ExtraAddedToken[]> {
  const byId = new Map<number, ExtraAddedToken>();
  const decoder = tokConfig.added_tokens_decoder;
  const configFile = files.tokenizerConfig ?? 'tokenizer_config.json';
  if (decoder !== undefined) {
    if (typeof decoder !== 'object' || decoder === null || Array.isArray(decoder)) {
      throw new InferkitError('model_load_failed', `${configFile}: added_tokens_decoder must be an object of id → token, got ${JSON.stringify(decoder)}`, { param: 'added_tokens_decoder' });
    }
    for (const [key, value] of Object.entries(decoder)) {
      const id = Number(key);
      const t = value as Record<string, unknown> | null;
      if (!Number.isInteger(id) || id < 0 || typeof t !== 'object' || t === null || typeof t.content !== 'string' || t.content === '') {
        throw new InferkitError('model_load_failed', `${configFile}: added_tokens_decoder["${key}"] must be a non-negative id with a token object that has a non-empty content`, { param: 'added_tokens_decoder' });
      }
      const special = t.special === true;
      byId.set(id, {
        id,
        content: t.content,
        special,
        normalized: typeof t.normalized === 'boolean' ? t.normalized : !special,
        lstrip: t.lstrip === true,
        rstrip: t.rstrip === true,
        singleWord: t.single_word === true,
        file: configFile,
      });
    }
  }
  if (files.addedTokensJson !== undefined) {
    const listed = await readJsonObjectFile(files.addedTokensJson, (value) => `must hold a JSON object, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`);
    const specials = specialContents(tokConfig);
    for (const [content, id] of Object.entries(listed)) {
      if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || content === '') {
        throw new InferkitError('model_load_failed', `${files.addedTokensJson}: each entry must be a non-empty token → a non-negative integer id, got ${JSON.stringify(content)}: ${JSON.stringify(id)}`, { param: ADDED_TOKENS_FILE });
      }
      if (!byId.has(id)) {
        const special = specials.has(content);
        byId.set(id, { id, content, special, normalized: !special, lstrip: false, rstrip: false, singleWord: false, file: files.addedTokensJson });
      }
    }
  }
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** The special tokens' texts: `tokConfig`'s keys and its `additional_special_tokens`. */
function specialContents(tokConfig: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  const list = Array.isArray(tokConfig.additional_special_tokens) ? (tokConfig.additional_special_tokens as unknown[]) : [];
  for (const value of [...SPECIAL_KEYS.map((key) => tokConfig[key]), ...list]) {
    const text = specialTokenText(value, '');
    if (text !== '') {
      out.add(text);
    }
  }
  return out;
}

/**
 * Adds `extra` to `tokenizer` as transformers would have. Skipped: entries it already has at their id, and special
 * tokens it already has at any id (the special tokens its own files make). The others must follow the tokenizer's ids
 * one by one from its size (transformers appends them): a gap, or a content the vocabulary has at another id, fails
 * naming the file, the token and both ids. Returns the tokenizer's size after.
 */
export function addExtraTokens(tokenizer: Tokenizer, extra: readonly ExtraAddedToken[]): number {
  for (const t of extra) {
    const has = tokenizer.tokenToId(t.content);
    // A special token the class makes keeps the class's id (as before these files were read; a CamemBERT config's
    // fairseq ids, say, are the class's business).
    if (has === t.id || (t.special && has !== null && has !== undefined)) {
      continue;
    }
    const next = tokenizer.getVocabSize(true);
    if (has !== null && has !== undefined) {
      throw new InferkitError('model_load_failed', `${t.file}: the added token ${JSON.stringify(t.content)} has id ${t.id}, and the tokenizer already has it at id ${has}`, { param: 'added_tokens' });
    }
    if (t.id !== next) {
      throw new InferkitError('model_load_failed', `${t.file}: the added token ${JSON.stringify(t.content)} has id ${t.id}, and the next free id of the tokenizer is ${next} (added tokens follow the vocabulary without gaps)`, { param: 'added_tokens' });
    }
    tokenizer.addAddedTokens([new tokenizers.AddedToken(t.content, t.special, { normalized: t.normalized, leftStrip: t.lstrip, rightStrip: t.rstrip, singleWord: t.singleWord })]);
    const got = tokenizer.tokenToId(t.content);
    if (got !== t.id) {
      throw new InferkitError('model_load_failed', `${t.file}: the added token ${JSON.stringify(t.content)} has id ${t.id}, and the tokenizer gave it ${String(got)}`, { param: 'added_tokens' });
    }
  }
  return tokenizer.getVocabSize(true);
}
