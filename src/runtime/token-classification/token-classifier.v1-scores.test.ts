import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeNerFixtureRepo, writeTokenClassifierRepo } from '../../onnx/model-repo.js';
import { nerFixtureVocab } from '../../onnx/ner-fixture-vocab.js';
import { loadTokenClassifier } from './load-token-classifier.js';
import type { TokenScoresEntry } from './kserve-outputs.js';

// Known-words fixture (no encoder): logits are exactly 10 at the token's label and 0 elsewhere, so
// softmax is e^10/(e^10+8) = 0.99964 → 0.9996 at the label and 4.5e-5 → 0 elsewhere.
let root: string;
const TEXTS = ['John is in Paris', 'hi'];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-tcs-'));
  await writeNerFixtureRepo(join(root, 'ner'));
  await writeTokenClassifierRepo(join(root, 'random'), { vocab: nerFixtureVocab(true), model: { layers: 1, hidden: 16, heads: 2, initStd: 0.5, seed: 3 } });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const argmaxOf = (token: Record<string, number>): number =>
  Object.entries(token).reduce((best, [k, v]) => (v > token[String(best)] ? Number(k) : best), 0);

describe('TokenClassifier V1 scores (--return_probabilities / --return_raw_logits)', () => {
  it('returnProbabilities: per token {"<class id>": probability, 4 decimals}, own tokens only', async () => {
    await using c = await loadTokenClassifier(join(root, 'ner'), { modelName: 'ner', returnProbabilities: true });
    expect(c.info.v1Output).toBe('probabilities');
    const res = await c.predictV1({ instances: TEXTS });
    expect(JSON.parse(JSON.stringify(res))).toEqual(res);
    const [john, hi] = res.predictions as TokenScoresEntry[];
    expect(john).toHaveLength(6);
    expect(hi).toHaveLength(3);
    expect(Object.keys(john[0])).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8']);
    expect(john[1]).toEqual({ 0: 0, 1: 0, 2: 0, 3: 0.9996, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0 });
    expect(john.map(argmaxOf)).toEqual([0, 3, 0, 0, 7, 0]);
  });

  it('returnRawLogits wins over returnProbabilities and returns the logits unrounded', async () => {
    await using c = await loadTokenClassifier(join(root, 'ner'), { modelName: 'ner', returnProbabilities: true, returnRawLogits: true });
    const [john] = (await c.predictV1({ instances: TEXTS })).predictions as TokenScoresEntry[];
    expect(c.info.v1Output).toBe('raw_logits');
    expect(john[4]).toEqual({ 0: 0, 1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 10, 8: 0 });
  });

  it('agrees with predictProbabilities and predictTokenIds on a real encoder; V2 still answers ids', async () => {
    await using c = await loadTokenClassifier(join(root, 'random'), { modelName: 'ner', returnProbabilities: true, maxBatchSize: 1 });
    const entries = (await c.predictV1({ instances: TEXTS })).predictions as TokenScoresEntry[];
    const { probabilities, truncated } = await c.predictProbabilities(TEXTS);
    const { classIds } = await c.predictTokenIds(TEXTS);
    expect(truncated).toEqual([false, false]);
    probabilities.forEach((rows, i) => {
      expect(rows).toHaveLength(classIds[i].length);
      rows.forEach((row, t) => {
        expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
        expect(row.indexOf(Math.max(...row))).toBe(classIds[i][t]);
        row.forEach((p, k) => expect(entries[i][t][String(k)]).toBeCloseTo(p, 4));
      });
    });
    const v2 = await c.inferV2({ inputs: [{ name: 'text', shape: [2], datatype: 'BYTES', data: TEXTS }] });
    expect(v2.outputs[0]).toMatchObject({ datatype: 'INT64', shape: [2, 1, classIds[0].length] });
    expect(v2.outputs[0].data.slice(0, classIds[0].length)).toEqual(classIds[0]);
  });
});
