import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeNerFixtureRepo } from '../../onnx/model-repo.js';
import { loadTokenClassifier } from './load-token-classifier.js';
import type { TokenClassifier } from './token-classifier.js';

// The known-words NER fixture: entity words get their labels, everything else O.
let root: string;
let ner: TokenClassifier;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-ner-'));
  await writeNerFixtureRepo(join(root, 'ner'), { lowercase: true });
  ner = await loadTokenClassifier(join(root, 'ner'), { modelName: 'ner', maxLength: 64 });
});
afterAll(async () => {
  await ner.dispose();
  await rm(root, { recursive: true, force: true });
});

const groups = (es: Array<{ word: string; start: number; end: number } & ({ entity_group: string } | { entity: string })>) =>
  es.map((e) => ['entity_group' in e ? e.entity_group : e.entity, e.word, e.start, e.end]);

describe('TokenClassifier.classify', () => {
  it('finds entities with sub-words and punctuation, offsets into the original text', async () => {
    const text = 'Angela Merkel met John Smith in Washington, New York (and Paris).';
    const [r] = await ner.classify([text], { aggregation: 'simple' });
    expect(groups(r.entities)).toEqual([
      ['PER', 'Angela Merkel', 0, 13],
      ['PER', 'John Smith', 18, 28],
      ['LOC', 'Washington', 32, 42],
      ['LOC', 'New York', 44, 52],
      ['LOC', 'Paris', 58, 63],
    ]);
    for (const e of r.entities) {
      expect(text.slice(e.start, e.end)).toBe(e.word);
    }
    expect(r.truncated).toBe(false);
  });

  it('counts offsets in UTF-16 units around emoji and non-Latin scripts', async () => {
    const text = '🎉🇫🇷 Paris, 東京 и Berlin 😀 Google';
    for (const aggregation of ['none', 'simple', 'first', 'average', 'max'] as const) {
      const [r] = await ner.classify([text], { aggregation });
      const words = r.entities.map((e) => e.word);
      expect(words).toEqual(['Paris', 'Berlin', 'Google']);
      for (const e of r.entities) {
        expect(text.slice(e.start, e.end)).toBe(e.word);
      }
    }
  });

  it('keeps a sub-word entity whole with first/average/max and labels tokens with none', async () => {
    const [none] = await ner.classify(['Washington'], { aggregation: 'none' });
    expect(groups(none.entities)).toEqual([
      ['B-LOC', 'Washing', 0, 7],
      ['I-LOC', 'ton', 7, 10],
    ]);
    for (const aggregation of ['first', 'average', 'max'] as const) {
      const [r] = await ner.classify(['Washington'], { aggregation });
      expect(groups(r.entities)).toEqual([['LOC', 'Washington', 0, 10]]);
    }
  });

  it('returns nothing for the empty string and reports truncation of a very long text', async () => {
    const long = `${'the day was good . '.repeat(40)}Paris`;
    const [empty, cut] = await ner.classify(['', long]);
    expect(empty).toEqual({ entities: [], truncated: false });
    expect(cut.truncated).toBe(true);
    expect(cut.entities).toEqual([]); // Paris lies past the 64-token limit
    const [whole] = await ner.classify([long.slice(-20)]);
    expect(groups(whole.entities)).toEqual([['LOC', 'Paris', 15, 20]]);
  });
});
