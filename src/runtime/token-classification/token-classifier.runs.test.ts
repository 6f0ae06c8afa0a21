import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTokenClassifierRepo } from '../../onnx/model-repo.js';
import { nerFixtureVocab } from '../../onnx/ner-fixture-vocab.js';
import { loadTokenClassifier } from './load-token-classifier.js';

// 17 texts of different lengths (one empty: it still has [CLS] and [SEP]).
const words = ['Berlin', 'Paris', 'Angela', 'Merkel', 'met', 'the', 'president', 'in', 'yesterday'];
const TEXTS = Array.from({ length: 17 }, (_, i) => (i === 5 ? '' : words.slice(0, 1 + (i * 7) % words.length).join(' ')));
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-runs-'));
  await writeTokenClassifierRepo(join(root, 'random'), { vocab: nerFixtureVocab(true), model: { layers: 2, hidden: 32, heads: 2, initStd: 0.5, seed: 7 } });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('TokenClassifier runs', () => {
  it('cuts a call into even runs (17 texts at most 8 per run: 6 + 6 + 5, not 8 + 8 + 1) and reports each run as it ends', async () => {
    await using c = await loadTokenClassifier(join(root, 'random'), { modelName: 'ner', maxBatchSize: 8, disableLowerCase: true });
    const seen: Array<{ indices: number[]; ids: number[][] }> = [];
    const { classIds } = await c.predictTokenIds(TEXTS, { onClassIds: (indices, ids) => seen.push({ indices: [...indices], ids: ids.map((r) => [...r]) }) });
    expect(seen.map((s) => s.indices.length)).toEqual([6, 6, 5]);
    expect(seen.flatMap((s) => s.indices).sort((a, b) => a - b)).toEqual(TEXTS.map((_, i) => i));
    // What a run reports is what the call returns for those texts.
    for (const s of seen) {
      s.indices.forEach((i, k) => expect(s.ids[k]).toEqual(classIds[i]));
    }
    expect(classIds[5]).toHaveLength(2);
  });

  it('a call that fits one run is one run: it reports every text once and answers what texts alone answer', async () => {
    await using c = await loadTokenClassifier(join(root, 'random'), { modelName: 'ner', maxBatchSize: 32, disableLowerCase: true });
    const seen: number[][] = [];
    const { classIds } = await c.predictTokenIds(TEXTS, { onClassIds: (indices) => seen.push([...indices]) });
    expect(seen).toEqual([TEXTS.map((_, i) => i)]);
    for (const i of [0, 5, 16]) {
      expect((await c.predictTokenIds([TEXTS[i]])).classIds[0]).toEqual(classIds[i]);
    }
    // No texts: empty answers, no run.
    expect(await c.predictTokenIds([])).toEqual({ classIds: [], truncated: [] });
    expect(await c.classify([])).toEqual([]);
    expect((await c.predictV1({ instances: [] })).predictions).toEqual([]);
    // An aborted call fails before the session runs, and the classifier still answers afterwards.
    const ac = new AbortController();
    ac.abort(new Error('client left'));
    const before = c.stats().calls;
    await expect(c.predictTokenIds(TEXTS, { signal: ac.signal })).rejects.toMatchObject({ code: 'inference_failed' });
    expect(c.stats().calls).toBe(before);
    expect((await c.predictTokenIds(TEXTS)).classIds).toEqual(classIds);
  });

  it('session replicas in worker threads answer what one in-thread session answers', async () => {
    await using local = await loadTokenClassifier(join(root, 'random'), { modelName: 'ner', maxBatchSize: 3, disableLowerCase: true });
    await using pooled = await loadTokenClassifier(join(root, 'random'), { modelName: 'ner', maxBatchSize: 3, disableLowerCase: true, session: { worker: true, replicas: 2 } });
    const [a, b] = await Promise.all([local.predictTokenIds(TEXTS), pooled.predictTokenIds(TEXTS)]);
    expect(b.classIds).toEqual(a.classIds);
  }, 30_000);

  it('with a latency session, the load times it against a replica on a sentence and records whether it was kept', async () => {
    await using c = await loadTokenClassifier(join(root, 'random'), { modelName: 'ner', disableLowerCase: true, session: { worker: true, replicas: 2, latencyThreads: 2 } });
    const probe = c.info.latencySession;
    expect(probe).toBeDefined();
    expect(probe?.kept).toBe((probe?.latencyMs ?? 0) <= 0.9 * (probe?.replicaMs ?? 0));
    await using plain = await loadTokenClassifier(join(root, 'random'), { modelName: 'ner', disableLowerCase: true });
    expect(plain.info.latencySession).toBeUndefined();
    expect((await c.predictTokenIds(TEXTS)).classIds).toEqual((await plain.predictTokenIds(TEXTS)).classIds);
  }, 30_000);

  it('overlapping calls share one run queue: their texts are packed into common runs, and each call answers what it answers alone', async () => {
    await using c = await loadTokenClassifier(join(root, 'random'), { modelName: 'ner', maxBatchSize: 4, disableLowerCase: true, session: { worker: true } });
    expect(c.sharesRunQueue).toBe(true);
    const alone = (await c.predictTokenIds(TEXTS)).classIds;
    const halves = [TEXTS.slice(0, 9), TEXTS.slice(9)];
    const runs: Array<{ call: number; n: number }> = [];
    const [first, second] = await Promise.all(
      halves.map((texts, call) => c.predictTokenIds(texts, { onClassIds: (indices) => runs.push({ call, n: indices.length }) })),
    );
    expect([...first.classIds, ...second.classIds]).toEqual(alone);
    // 17 texts at most 4 per run: 5 runs of 4, 4, 3, 3, 3; a run holding both calls' texts reports to each.
    expect(runs.reduce((n, r) => n + r.n, 0)).toBe(17);
    expect(runs.length).toBeGreaterThan(5);
  }, 30_000);
});

