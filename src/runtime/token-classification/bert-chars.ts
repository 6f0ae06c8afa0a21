/**
 * Per-character rules of the BERT pipeline (BertNormalizer + BertPreTokenizer), as Hugging Face
 * `tokenizers` applies them: what one original code point becomes after normalisation, and how
 * each resulting code point splits words. Written from the documented semantics; Unicode classes
 * come from V8's tables, corrected where the Rust crate's older tables differ (`bert-unicode-flips.ts`).
 */

import { inRanges, NONSPACING_MARK_FLIPS, OTHER_FLIPS, PUNCTUATION_FLIPS } from './bert-unicode-flips.js';

/**
 * How a normalised code point splits words: part of a word (0); whitespace, which ends the word and
 * is dropped (1); punctuation, or a CJK ideograph with `handle_chinese_chars`, a word of its own (2).
 */
export type CharKind = 0 | 1 | 2;
/** {@link CharKind} values. */
export const WORD: CharKind = 0;
export const SPACE: CharKind = 1;
export const ALONE: CharKind = 2;

/** The normaliser switches of a `BertNormalizer`. */
export interface BertNormalizerFlags {
  cleanText: boolean;
  handleChineseChars: boolean;
  stripAccents: boolean;
  lowercase: boolean;
}

/** What one original code point becomes: normalised code points and their kinds (empty: dropped). */
export interface CharOutput {
  cps: number[];
  /** The same code points as strings. */
  strs: string[];
  kinds: CharKind[];
}

// Rust's char::is_whitespace (the Unicode White_Space property); V8 knows the same property.
const WHITE_SPACE = /^\p{White_Space}$/u;
// Unicode "other" as the crate counts it: control, format, private use (not unassigned).
const OTHER = /^[\p{Cc}\p{Cf}\p{Co}]$/u;
const PUNCTUATION = /^\p{P}$/u;
const NONSPACING_MARK = /^\p{Mn}$/u;

function isWhitespace(cp: number): boolean {
  return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d) || (cp >= 0x80 && WHITE_SPACE.test(String.fromCodePoint(cp)));
}

function isPunctuation(cp: number): boolean {
  if (cp < 0x80) {
    return (cp >= 0x21 && cp <= 0x2f) || (cp >= 0x3a && cp <= 0x40) || (cp >= 0x5b && cp <= 0x60) || (cp >= 0x7b && cp <= 0x7e);
  }
  return PUNCTUATION.test(String.fromCodePoint(cp)) !== inRanges(PUNCTUATION_FLIPS, cp);
}

/** Dropped by clean_text: NUL, U+FFFD and "other" characters, except tab, newline and carriage return. */
function isDropped(cp: number): boolean {
  if (cp === 0x09 || cp === 0x0a || cp === 0x0d) {
    return false;
  }
  return cp === 0 || cp === 0xfffd || OTHER.test(String.fromCodePoint(cp)) !== inRanges(OTHER_FLIPS, cp);
}

/** The CJK Unified Ideographs blocks BERT isolates (not Hangul, Hiragana or Katakana). */
function isChinese(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b920 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) {
    out.push(ch.codePointAt(0) ?? 0);
  }
  return out;
}

const DROPPED: CharOutput = { cps: [], strs: [], kinds: [] };
const BLANK: CharOutput = { cps: [0x20], strs: [' '], kinds: [SPACE] };

/** Normalises one original code point (no caching; see {@link charTable}). */
function normalizeChar(original: number, flags: BertNormalizerFlags): CharOutput {
  // A lone surrogate reaches the native tokenizer as U+FFFD (lossy UTF-8); do the same.
  const cp = original >= 0xd800 && original <= 0xdfff ? 0xfffd : original;
  if (flags.cleanText) {
    if (isDropped(cp)) {
      return DROPPED;
    }
    if (isWhitespace(cp)) {
      return BLANK;
    }
  }
  let cps = [cp];
  if (flags.stripAccents && cp >= 0x80) {
    cps = codePoints(String.fromCodePoint(cp).normalize('NFD')).filter((c) => NONSPACING_MARK.test(String.fromCodePoint(c)) === inRanges(NONSPACING_MARK_FLIPS, c));
  }
  if (flags.lowercase) {
    cps = cps.flatMap((c) => (c >= 0x41 && c <= 0x5a ? [c + 32] : c < 0x80 ? [c] : codePoints(String.fromCodePoint(c).toLowerCase())));
  }
  const chinese = flags.handleChineseChars && isChinese(cp);
  const kinds = cps.map((c) => (isWhitespace(c) ? SPACE : chinese || isPunctuation(c) ? ALONE : WORD));
  return { cps, strs: cps.map((c) => String.fromCodePoint(c)), kinds };
}

// Distinct non-ASCII characters remembered per table; more are normalised each time (bounded memory).
const CACHE_LIMIT = 20_000;

/** A memoised {@link normalizeChar} for one set of flags; ASCII is precomputed. */
export interface CharTable {
  get(cp: number): CharOutput;
}

/** Builds the per-character table of a normaliser configuration. */
export function charTable(flags: BertNormalizerFlags): CharTable {
  const ascii = Array.from({ length: 128 }, (_, cp) => normalizeChar(cp, flags));
  const cache = new Map<number, CharOutput>();
  return {
    get(cp: number): CharOutput {
      if (cp < 128) {
        return ascii[cp];
      }
      let out = cache.get(cp);
      if (out === undefined) {
        out = normalizeChar(cp, flags);
        if (cache.size < CACHE_LIMIT) {
          cache.set(cp, out);
        }
      }
      return out;
    },
  };
}
