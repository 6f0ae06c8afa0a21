import { describe, expect, it } from 'vitest';
import { groupEntities, type AggregationStrategy, type TokenPredictions } from './group-entities.js';

/**
 * One token per space-separated word of `text`, tagged `tags[i]` with probability 0.9 (0.1 on `O`),
 * wrapped in [CLS]/[SEP]; `labels` is the model's label set.
 */
function tagged(text: string, tags: readonly string[], labels: readonly string[]): TokenPredictions {
  const words = text.split(' ');
  expect(words).toHaveLength(tags.length);
  const row = (tag: string | undefined): number[] =>
    labels.map((l) => (tag === undefined ? (l === 'O' ? 1 : 0) : l === tag ? (tag === 'O' ? 1 : 0.9) : l === 'O' ? 0.1 : 0));
  const offsets: Array<[number, number]> = [[0, 0]];
  let at = 0;
  for (const w of words) {
    offsets.push([at, at + w.length]);
    at += w.length + 1;
  }
  offsets.push([0, 0]);
  return {
    text,
    labels,
    probs: Float32Array.from([...row(undefined), ...tags.flatMap((t) => row(t)), ...row(undefined)]),
    offsets,
    wordIds: [null, ...words.map((_, i) => i), null],
  };
}
const groups = (p: TokenPredictions, strategy: AggregationStrategy = 'simple') =>
  groupEntities(p, strategy).map((e) => ['entity_group' in e ? e.entity_group : e.entity, e.word]);

const BIOES = ['O', 'B-PER', 'I-PER', 'E-PER', 'S-PER', 'B-LOC', 'I-LOC', 'E-LOC', 'S-LOC'];
const BILOU = ['O', 'B-PER', 'I-PER', 'L-PER', 'U-PER', 'B-LOC', 'I-LOC', 'L-LOC', 'U-LOC'];

describe('groupEntities tag schemes', () => {
  it('BIOES: B…E spans one entity, S- is an entity alone, adjacent S- never merge', () => {
    const p = tagged('John Ronald Tolkien met Ann Bob in Oslo', ['B-PER', 'I-PER', 'E-PER', 'O', 'S-PER', 'S-PER', 'O', 'S-LOC'], BIOES);
    expect(groups(p)).toEqual([
      ['PER', 'John Ronald Tolkien'],
      ['PER', 'Ann'],
      ['PER', 'Bob'],
      ['LOC', 'Oslo'],
    ]);
  });

  it('BILOU: L- closes and U- stands alone, same as E-/S-', () => {
    const p = tagged('John Tolkien Ann Oslo', ['B-PER', 'L-PER', 'U-PER', 'U-LOC'], BILOU);
    expect(groups(p)).toEqual([
      ['PER', 'John Tolkien'],
      ['PER', 'Ann'],
      ['LOC', 'Oslo'],
    ]);
  });

  it('a closed entity is not continued: I-/E- after E- or S- open a new one', () => {
    const p = tagged('a b c d e', ['S-PER', 'I-PER', 'E-PER', 'E-PER', 'I-PER'], BIOES);
    expect(groups(p)).toEqual([
      ['PER', 'a'],
      ['PER', 'b c'],
      ['PER', 'd'],
      ['PER', 'e'],
    ]);
  });

  it('a type change always splits, whatever the prefix', () => {
    const p = tagged('Paris Hilton', ['B-LOC', 'E-PER'], BIOES);
    expect(groups(p)).toEqual([
      ['LOC', 'Paris'],
      ['PER', 'Hilton'],
    ]);
  });

  it('labels without a prefix: adjacent tokens of one type form one entity, other types split', () => {
    const p = tagged('New York Mets beat Boston Red Sox', ['LOC', 'LOC', 'ORG', 'O', 'ORG', 'ORG', 'ORG'], ['O', 'PER', 'LOC', 'ORG']);
    expect(groups(p)).toEqual([
      ['LOC', 'New York'],
      ['ORG', 'Mets'],
      ['ORG', 'Boston Red Sox'],
    ]);
    expect(groupEntities(p, 'simple')[0].score).toBeCloseTo(0.9, 5);
  });

  it('word-level strategies use the same rules after picking one label per word', () => {
    const labels = BIOES;
    const p: TokenPredictions = {
      ...tagged('Tolkien wrote', ['S-PER', 'O'], labels),
      // "Tolkien" as two sub-tokens: first says S-PER, second E-PER; `first` keeps S-PER.
      probs: Float32Array.from(
        [undefined, 'S-PER', 'E-PER', 'O', undefined].flatMap((t) => labels.map((l) => (l === (t ?? 'O') ? 1 : 0))),
      ),
      offsets: [[0, 0], [0, 4], [4, 7], [8, 13], [0, 0]],
      wordIds: [null, 0, 0, 1, null],
    };
    expect(groups(p, 'first')).toEqual([['PER', 'Tolkien']]);
    expect(groups(p, 'simple')).toEqual([
      ['PER', 'Tolk'],
      ['PER', 'ien'],
    ]);
  });
});
