import { describe, expect, it } from 'vitest';
import { groupEntities, type TokenPredictions } from './group-entities.js';

// "Jonathan Paris" → [CLS] jon ##athan paris [SEP]; "jon" leans PER, "##athan" strongly LOC.
const labels = ['O', 'B-PER', 'I-PER', 'B-LOC', 'I-LOC'];
const row = (p: Record<string, number>): number[] => labels.map((l) => p[l] ?? 0);
const pred: TokenPredictions = {
  text: 'Jonathan Paris',
  labels,
  probs: Float32Array.from([
    ...row({ O: 1 }),
    ...row({ 'B-PER': 0.6, 'B-LOC': 0.4 }),
    ...row({ 'B-PER': 0.1, 'B-LOC': 0.9 }),
    ...row({ 'B-LOC': 0.8, O: 0.2 }),
    ...row({ O: 1 }),
  ]),
  offsets: [[0, 0], [0, 3], [3, 8], [9, 14], [0, 0]],
  wordIds: [null, 0, 0, 1, null],
};
const brief = (es: ReturnType<typeof groupEntities>) =>
  es.map((e) => ['entity_group' in e ? e.entity_group : e.entity, e.word, e.start, e.end, Number(e.score.toFixed(3))]);

describe('groupEntities', () => {
  it('none: one entity per token, special tokens and O left out', () => {
    const es = groupEntities(pred, 'none');
    expect(brief(es)).toEqual([
      ['B-PER', 'Jon', 0, 3, 0.6],
      ['B-LOC', 'athan', 3, 8, 0.9],
      ['B-LOC', 'Paris', 9, 14, 0.8],
    ]);
    expect(es.map((e) => ('index' in e ? e.index : -1))).toEqual([1, 2, 3]);
  });

  it('simple: tokens merge by tag, a B- tag opens a new entity', () => {
    expect(brief(groupEntities(pred, 'simple'))).toEqual([
      ['PER', 'Jon', 0, 3, 0.6],
      ['LOC', 'athan', 3, 8, 0.9],
      ['LOC', 'Paris', 9, 14, 0.8],
    ]);
  });

  it('first / average / max: one label per word, chosen as each strategy says', () => {
    expect(brief(groupEntities(pred, 'first'))).toEqual([
      ['PER', 'Jonathan', 0, 8, 0.6],
      ['LOC', 'Paris', 9, 14, 0.8],
    ]);
    expect(brief(groupEntities(pred, 'average'))).toEqual([
      ['LOC', 'Jonathan', 0, 8, 0.65],
      ['LOC', 'Paris', 9, 14, 0.8],
    ]);
    expect(brief(groupEntities(pred, 'max'))).toEqual([
      ['LOC', 'Jonathan', 0, 8, 0.9],
      ['LOC', 'Paris', 9, 14, 0.8],
    ]);
  });

  it('merges I- continuations across words and keeps O when asked', () => {
    const p: TokenPredictions = {
      ...pred,
      text: 'New York',
      probs: Float32Array.from([...row({ O: 1 }), ...row({ 'B-LOC': 1 }), ...row({ 'I-LOC': 1 }), ...row({ O: 1 })]),
      offsets: [[0, 0], [0, 3], [4, 8], [0, 0]],
      wordIds: [null, 0, 1, null],
    };
    expect(brief(groupEntities(p, 'simple'))).toEqual([['LOC', 'New York', 0, 8, 1]]);
    expect(groupEntities({ ...p, probs: Float32Array.from([...row({ O: 1 }), ...row({ O: 1 }), ...row({ O: 1 }), ...row({ O: 1 })]) }, 'first', [])).toEqual([
      { entity_group: 'O', score: 1, word: 'New York', start: 0, end: 8 },
    ]);
  });
});
