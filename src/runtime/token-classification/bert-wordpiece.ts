import { charTable, SPACE, ALONE, type BertNormalizerFlags } from './bert-chars.js';
import type { EncodedText } from './load-text-tokenizer.js';

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

/** Tokens of one text as parallel arrays; offsets are into the original text. */
interface Sink {
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
}

/** The current word: normalised text, and per code point its position there and in the original. */
interface WordBuffer {
  text: string;
  pos: number[];
  cp: number[];
  unit: number[];
  unitEnd: number[];
}

/**
 * A synchronous BERT WordPiece tokenizer equivalent to Hugging Face `tokenizers` with
 * BertNormalizer, BertPreTokenizer, WordPiece and a `[CLS] $A [SEP]` post-processor: the same
 * ids, truncation, offsets (code points and UTF-16) and word ids.
 */
export function createBertWordPiece(spec: BertWordPieceSpec): BertWordPieceEncoder {
  const chars = charTable(spec.normalizer);
  let maxKey = 0;
  for (const key of spec.vocab.keys()) {
    maxKey = Math.max(maxKey, key.length);
  }
  const added = spec.addedTokens.filter((t) => t.content.length > 0);

  const wordPiece = (sink: Sink, w: WordBuffer): void => {
    const n = w.cp.length;
    const word = sink.word++;
    const emit = (id: number, from: number, to: number): void => {
      sink.ids.push(id);
      sink.cpStart.push(w.cp[from]);
      sink.cpEnd.push(w.cp[to - 1] + 1);
      sink.unitStart.push(w.unit[from]);
      sink.unitEnd.push(w.unitEnd[to - 1]);
      sink.words.push(word);
    };
    w.pos.push(w.text.length);
    const first = sink.ids.length;
    let start = 0;
    while (n <= spec.maxInputCharsPerWord && start < n) {
      const extra = start > 0 ? spec.prefix.length : 0;
      let end = n;
      while (end > start && w.pos[end] - w.pos[start] + extra > maxKey) {
        end--;
      }
      let id: number | undefined;
      for (; end > start; end--) {
        const piece = w.text.slice(w.pos[start], w.pos[end]);
        id = spec.vocab.get(start > 0 ? spec.prefix + piece : piece);
        if (id !== undefined) {
          break;
        }
      }
      if (id === undefined) {
        break;
      }
      emit(id, start, end);
      start = end;
    }
    if (start < n || n > spec.maxInputCharsPerWord) {
      // No full cover (or too long): the whole word is one unknown token.
      for (const a of [sink.ids, sink.cpStart, sink.cpEnd, sink.unitStart, sink.unitEnd, sink.words]) {
        a.length = first;
      }
      emit(spec.unkId, 0, n);
    }
  };

  const plain = (sink: Sink, text: string, from: number, to: number, cpFrom: number): number => {
    const w: WordBuffer = { text: '', pos: [], cp: [], unit: [], unitEnd: [] };
    const flush = (): void => {
      if (w.cp.length > 0 && sink.ids.length < sink.limit) {
        wordPiece(sink, w);
      }
      w.text = '';
      w.pos = [];
      w.cp = [];
      w.unit = [];
      w.unitEnd = [];
    };
    let cp = cpFrom;
    for (let u = from; u < to && sink.ids.length < sink.limit; cp++) {
      const c = text.codePointAt(u) ?? 0;
      const next = u + (c > 0xffff ? 2 : 1);
      const out = chars.get(c);
      for (let k = 0; k < out.cps.length; k++) {
        const kind = out.kinds[k];
        if (kind === SPACE) {
          flush();
          continue;
        }
        if (kind === ALONE) {
          flush();
        }
        w.pos.push(w.text.length);
        w.text += out.strs[k];
        w.cp.push(cp);
        w.unit.push(u);
        w.unitEnd.push(next);
        if (kind === ALONE) {
          flush();
        }
      }
      u = next;
    }
    flush();
    return cp;
  };

  return (text, options) => {
    const pre = options.addSpecialTokens ? spec.prefixIds : [];
    const post = options.addSpecialTokens ? spec.suffixIds : [];
    const budget = Math.max(0, options.maxLength - pre.length - post.length);
    const sink: Sink = { ids: [], cpStart: [], cpEnd: [], unitStart: [], unitEnd: [], words: [], word: 0, limit: budget + 1 };
    let unit = 0;
    let cp = 0;
    for (const m of findAddedTokens(text, added)) {
      if (sink.ids.length >= sink.limit) {
        break;
      }
      cp = plain(sink, text, unit, m.start, cp);
      const cpEnd = cp + countCodePoints(text, m.start, m.end);
      sink.ids.push(m.id);
      sink.cpStart.push(cp);
      sink.cpEnd.push(cpEnd);
      sink.unitStart.push(m.start);
      sink.unitEnd.push(m.end);
      sink.words.push(sink.word++);
      cp = cpEnd;
      unit = m.end;
    }
    if (sink.ids.length < sink.limit) {
      plain(sink, text, unit, text.length, cp);
    }
    const truncated = sink.ids.length > budget;
    const n = Math.min(sink.ids.length, budget);
    const ids = [...pre, ...sink.ids.slice(0, n), ...post];
    if (!options.details) {
      return { ids, truncated, offsets: [], codePointOffsets: [], wordIds: [] };
    }
    const specials = (k: number): Array<[number, number]> => Array.from({ length: k }, () => [0, 0]);
    const span = (a: number[], b: number[]): Array<[number, number]> => a.slice(0, n).map((s, i) => [s, b[i]]);
    const none = (k: number): null[] => new Array<null>(k).fill(null);
    return {
      ids,
      truncated,
      offsets: [...specials(pre.length), ...span(sink.unitStart, sink.unitEnd), ...specials(post.length)],
      codePointOffsets: [...specials(pre.length), ...span(sink.cpStart, sink.cpEnd), ...specials(post.length)],
      wordIds: [...none(pre.length), ...sink.words.slice(0, n), ...none(post.length)],
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
