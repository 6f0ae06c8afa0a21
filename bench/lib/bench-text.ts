import { nerFixtureVocab } from '../../src/onnx/ner-fixture-vocab.js';

/** BERT-base's vocabulary size. */
export const BERT_VOCAB_SIZE = 30_522;

/**
 * The benchmark vocabulary: the NER fixture's real words (so every benchmark text tokenizes into
 * known whole words, no [UNK]) padded with synthetic `tokNNNNN` entries to BERT-base's 30,522
 * rows, so the embedding table has the real size.
 */
export function benchVocab(): string[] {
  const vocab = nerFixtureVocab(true);
  for (let i = vocab.length; i < BERT_VOCAB_SIZE; i++) {
    vocab.push(`tok${String(i).padStart(5, '0')}`);
  }
  return vocab;
}

/** Whole words of the vocabulary that are one token each (letters only, 2+ characters). */
export function benchWords(): string[] {
  return nerFixtureVocab(true).filter((t) => /^[a-z]{2,}$/.test(t));
}

/**
 * A text of `words` space-separated words that each tokenize to one token, so the text is
 * `words + 2` tokens with [CLS]/[SEP]. Deterministic for a given `seed`; capitalised like prose.
 */
export function benchText(words: number, seed = 0, pool: readonly string[] = benchWords()): string {
  const out: string[] = [];
  let x = (seed * 2654435761 + 12345) >>> 0;
  for (let i = 0; i < words; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    const w = pool[x % pool.length];
    out.push(i === 0 ? w[0].toUpperCase() + w.slice(1) : w);
  }
  return out.join(' ');
}

/** `count` texts of `words` words each, different seeds. */
export function benchTexts(count: number, words: number, seed = 0): string[] {
  const pool = benchWords();
  return Array.from({ length: count }, (_, i) => benchText(words, seed * 100_003 + i, pool));
}
