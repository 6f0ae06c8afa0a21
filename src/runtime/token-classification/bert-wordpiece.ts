import { ALONE, charTable, SPACE, type BertNormalizerFlags, type CharTable } from './bert-chars.js';
import type { EncodedText } from './encoded-text.js';

/** A token matched in the raw text before normalisation (`normalized: false` added tokens). */
export interface AddedTokenSpec {
  content: string;
  id: number;
  /** Also swallow whitespace on the left / right of a match. */
  lstrip: boolean;
  rstrip: boolean;
}

/** Everything a BERT WordPiece tokenizer needs (see `bert-wordpiece-spec.ts` for where it comes from). */
export interface BertWordPieceSpec {
  vocab: ReadonlyMap<string, number>;
  unkId: number;
  /** `continuing_subword_prefix`, e.g. `##`. */
  prefix: string;
  /** Longer words (in normalised code points) become one unknown token. */
  maxInputCharsPerWord: number;
  normalizer: BertNormalizerFlags;
  addedTokens: readonly AddedTokenSpec[];
  /** Special ids before and after the text (`[CLS]` and `[SEP]`); empty without a post-processor. */
  prefixIds: readonly number[];
  suffixIds: readonly number[];
}

/** Per-call options of a {@link BertWordPieceEncoder}. */
export interface BertEncodeOptions {
  /** Maximum tokens, special tokens included. */
  maxLength: number;
  addSpecialTokens: boolean;
  /** Fill offsets and word ids. */
  details: boolean;
}

/** Tokenizes one text synchronously. */
export type BertWordPieceEncoder = (text: string, options: BertEncodeOptions) => EncodedText;

/** One call's state: the tokens so far as parallel arrays (offsets into the original text) and the current word. */
interface State {
  spec: BertWordPieceSpec;
  /** Longest vocabulary entry, in UTF-16 units. */
  maxKey: number;
  ids: number[];
  cpStart: number[];
  cpEnd: number[];
  unitStart: number[];
  unitEnd: number[];
  words: number[];
  /** Index of the next word (pre-token or added token). */
  word: number;
  /** Tokens wanted: one more than fit tells that the text was cut. */
  limit: number;
  /** The current word: normalised text, and per code point its position there and its original code point / UTF-16 span. */
  text: string;
  pos: number[];
  cp: number[];
  unit: number[];
  unitNext: number[];
}

function push(st: State, id: number, cpStart: number, cpEnd: number, unitStart: number, unitEnd: number, word: number): void {
  st.ids.push(id);
  st.cpStart.push(cpStart);
  st.cpEnd.push(cpEnd);
  st.unitStart.push(unitStart);
  st.unitEnd.push(unitEnd);
  st.words.push(word);
}

/** Greedy longest-match WordPiece of the current word; a word without a full cover (or too long) is one unknown token. */
function wordPiece(st: State): void {
  const { spec, pos, cp, unit, unitNext } = st;
  const n = cp.length;
  const word = st.word++;
  pos.push(st.text.length);
  const first = st.ids.length;
  let start = 0;
  while (n <= spec.maxInputCharsPerWord && start < n) {
    const extra = start > 0 ? spec.prefix.length : 0;
    let end = n;
    while (end > start && pos[end] - pos[start] + extra > st.maxKey) {
      end--;
    }
    let id: number | undefined;
    for (; end > start; end--) {
      const piece = st.text.slice(pos[start], pos[end]);
      id = spec.vocab.get(start > 0 ? spec.prefix + piece : piece);
      if (id !== undefined) {
        break;
      }
    }
    if (id === undefined) {
      break;
    }
    push(st, id, cp[start], cp[end - 1] + 1, unit[start], unitNext[end - 1], word);
    start = end;
  }
  if (start < n || n > spec.maxInputCharsPerWord) {
    for (const a of [st.ids, st.cpStart, st.cpEnd, st.unitStart, st.unitEnd, st.words]) {
      a.length = first;
    }
    push(st, spec.unkId, cp[0], cp[n - 1] + 1, unit[0], unitNext[n - 1], word);
  }
}

function flush(st: State): void {
  if (st.cp.length > 0 && st.ids.length < st.limit) {
    wordPiece(st);
  }
  st.text = '';
  st.pos.length = 0;
  st.cp.length = 0;
  st.unit.length = 0;
  st.unitNext.length = 0;
}

/** Normalises, pre-tokenizes and WordPieces `text[from, to)`, whose first code point is number `cpFrom`; returns the code point after it. */
function plain(st: State, chars: CharTable, text: string, from: number, to: number, cpFrom: number): number {
  let cp = cpFrom;
  for (let u = from; u < to && st.ids.length < st.limit; cp++) {
    const c = text.codePointAt(u) ?? 0;
    const next = u + (c > 0xffff ? 2 : 1);
    const out = chars.get(c);
    for (let k = 0; k < out.cps.length; k++) {
      const kind = out.kinds[k];
      if (kind === SPACE) {
        flush(st);
        continue;
      }
      if (kind === ALONE) {
        flush(st);
      }
      st.pos.push(st.text.length);
      st.text += out.strs[k];
      st.cp.push(cp);
      st.unit.push(u);
      st.unitNext.push(next);
      if (kind === ALONE) {
        flush(st);
      }
    }
    u = next;
  }
  flush(st);
  return cp;
}

/** `k` special-token entries, then the first `n` of `a`/`b` as pairs, then `m` more. */
function spans(k: number, a: readonly number[], b: readonly number[], n: number, m: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < k; i++) {
    out.push([0, 0]);
  }
  for (let i = 0; i < n; i++) {
    out.push([a[i], b[i]]);
  }
  for (let i = 0; i < m; i++) {
    out.push([0, 0]);
  }
  return out;
}

/**
 * A synchronous BERT WordPiece tokenizer equivalent to Hugging Face `tokenizers` with
 * BertNormalizer, BertPreTokenizer, WordPiece and a `[CLS] $A [SEP]` post-processor: the same
 * ids, offsets (code points and UTF-16) and word ids; `truncated` is true whenever tokens were cut.
 */
export function createBertWordPiece(spec: BertWordPieceSpec): BertWordPieceEncoder {
  const chars = charTable(spec.normalizer);
  let maxKey = 0;
  for (const key of spec.vocab.keys()) {
    maxKey = Math.max(maxKey, key.length);
  }
  const added = spec.addedTokens.filter((t) => t.content.length > 0);
  return (text, options) => {
    const pre = options.addSpecialTokens ? spec.prefixIds : [];
    const post = options.addSpecialTokens ? spec.suffixIds : [];
    const budget = Math.max(0, options.maxLength - pre.length - post.length);
    const st: State = { spec, maxKey, ids: [], cpStart: [], cpEnd: [], unitStart: [], unitEnd: [], words: [], word: 0, limit: budget + 1, text: '', pos: [], cp: [], unit: [], unitNext: [] };
    let unit = 0;
    let cp = 0;
    for (const m of findAddedTokens(text, added)) {
      if (st.ids.length >= st.limit) {
        break;
      }
      cp = plain(st, chars, text, unit, m.start, cp);
      const cpEnd = cp + countCodePoints(text, m.start, m.end);
      push(st, m.id, cp, cpEnd, m.start, m.end, st.word++);
      cp = cpEnd;
      unit = m.end;
    }
    if (st.ids.length < st.limit) {
      plain(st, chars, text, unit, text.length, cp);
    }
    const truncated = st.ids.length > budget;
    const n = Math.min(st.ids.length, budget);
    const ids = [...pre];
    for (let i = 0; i < n; i++) {
      ids.push(st.ids[i]);
    }
    ids.push(...post);
    if (!options.details) {
      return { ids, truncated, offsets: [], codePointOffsets: [], wordIds: [] };
    }
    const wordIds: Array<number | null> = [];
    for (let i = 0; i < ids.length; i++) {
      wordIds.push(i >= pre.length && i < pre.length + n ? st.words[i - pre.length] : null);
    }
    return {
      ids,
      truncated,
      offsets: spans(pre.length, st.unitStart, st.unitEnd, n, post.length),
      codePointOffsets: spans(pre.length, st.cpStart, st.cpEnd, n, post.length),
      wordIds,
    };
  };
}

function countCodePoints(text: string, from: number, to: number): number {
  let n = 0;
  for (let u = from; u < to; n++) {
    u += (text.codePointAt(u) ?? 0) > 0xffff ? 2 : 1;
  }
  return n;
}

interface AddedMatch {
  id: number;
  start: number;
  end: number;
}

// Rust's char::is_whitespace: the Unicode White_Space property.
const WHITE_SPACE = /\p{White_Space}/u;

/**
 * Non-overlapping matches of the added tokens in the raw text, leftmost first and, at one
 * position, the longest; `lstrip`/`rstrip` widen a match over neighbouring whitespace.
 */
function findAddedTokens(text: string, tokens: readonly AddedTokenSpec[]): AddedMatch[] {
  const matches: AddedMatch[] = [];
  if (tokens.length === 0) {
    return matches;
  }
  const next = tokens.map((t) => text.indexOf(t.content));
  let from = 0;
  for (;;) {
    let best = -1;
    for (let k = 0; k < tokens.length; k++) {
      if (next[k] >= 0 && next[k] < from) {
        next[k] = text.indexOf(tokens[k].content, from);
      }
      if (next[k] >= 0 && (best < 0 || next[k] < next[best] || (next[k] === next[best] && tokens[k].content.length > tokens[best].content.length))) {
        best = k;
      }
    }
    if (best < 0) {
      return matches;
    }
    const token = tokens[best];
    let start = next[best];
    let end = start + token.content.length;
    if (token.lstrip) {
      while (start > from && WHITE_SPACE.test(text[start - 1])) {
        start--;
      }
    }
    if (token.rstrip) {
      while (end < text.length && WHITE_SPACE.test(text[end])) {
        end++;
      }
    }
    matches.push({ id: token.id, start, end });
    from = end;
  }
}
