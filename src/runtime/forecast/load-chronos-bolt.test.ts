import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isInferkitError } from '../../errors.js';
import { TINY_BOLT_LIKE, writeChronosFixtureRepo, type ChronosFixtureRepoOptions } from '../../onnx/model-repo.js';
import type { ForecastModel } from './forecast-model.js';
import { loadChronosBolt } from './load-chronos-bolt.js';

const Q = [0.1, 0.5, 0.9];
let root: string;
const fixture = async (name: string, o: ChronosFixtureRepoOptions): Promise<string> => {
  await writeChronosFixtureRepo(join(root, name), o);
  return join(root, name);
};
let rule: ForecastModel;
let ruleDir: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-bolt-'));
  ruleDir = await fixture('rule', { contextLength: 8, predictionLength: 3, patchSize: 4, quantiles: Q, trend: 1 });
  rule = await loadChronosBolt(ruleDir, { batchSize: 2 });
});
afterAll(async () => {
  await rule?.dispose();
  await rm(root, { recursive: true, force: true });
});

/** The rule graph: out[q, h] = mean(present values) + (q - 0.5)·10 + (h + 1). */
const expected = (mean: number, horizon: number): number[] =>
  Q.flatMap((q) => Array.from({ length: horizon }, (_, h) => mean + (q - 0.5) * 10 + h + 1));

describe('loadChronosBolt', () => {
  it('reads chronos_config from a local folder', () => {
    expect(rule).toMatchObject({ name: 'rule', nativeHorizon: 3, quantiles: Q, patchSize: 4, contextLength: 8 });
  });

  it('returns exact rule values, level-major, in input order across batch boundaries', async () => {
    const batch = [[1, 3], [10, 20, 30, 40, 50], [2], [4, 4, 4, 4, 4, 4, 4, 4], [6, 8]].map((s) => Float32Array.from(s));
    const f = await rule.predict(batch, 3);
    expect(f.levels).toEqual(Q);
    expect(f.mean).toBeUndefined();
    expect(f.values.map((v) => Array.from(v))).toEqual([2, 30, 2, 4, 7].map((m) => expected(m, 3)));
  });

  it('cuts context longer than context_length to the most recent values', async () => {
    const long = Float32Array.from([1000, 1000, 1, 2, 3, 4, 5, 6, 7, 8]);
    const [v] = (await rule.predict([long], 2)).values;
    expect(Array.from(v)).toEqual(expected(4.5, 2));
  });

  it('passes missing values as NaN (ignored by the rule) and gives NaN for an all-missing row', async () => {
    const f = await rule.predict([Float32Array.from([NaN, 2, NaN, 4]), Float32Array.from([NaN, NaN])], 1);
    expect(Array.from(f.values[0])).toEqual(expected(3, 1));
    expect(Array.from(f.values[1]).every(Number.isNaN)).toBe(true);
  });

  it('rejects a horizon beyond prediction_length', async () => {
    await expect(rule.predict([Float32Array.from([1])], 4)).rejects.toMatchObject({ code: 'invalid_request', param: 'options.horizon' });
  });

  it('gives the same forecasts with and without grouping by length on a transformer graph', async () => {
    const dir = await fixture('bolt', TINY_BOLT_LIKE);
    const grouped = await loadChronosBolt(dir, { batchSize: 3 });
    const plain = await loadChronosBolt(dir, { batchSize: 3, groupByLength: false });
    const batch = [5, 40, 9, 70, 16, 1, 33].map((n, i) => Float32Array.from({ length: n }, (_, t) => Math.sin(t + i) * 10 + i));
    const [a, b] = [await grouped.predict(batch, 4), await plain.predict(batch, 4)];
    a.values.forEach((v, i) => v.forEach((x, k) => expect(x).toBeCloseTo(b.values[i][k], 4)));
    expect(a.values.every((v) => v.every(Number.isFinite))).toBe(true);
    await grouped.dispose();
    await plain.dispose();
    // A batch size that is not a positive integer is named before any session opens.
    for (const batchSize of [0, 2.5, Number.NaN]) {
      await expect(loadChronosBolt(dir, { batchSize })).rejects.toMatchObject({ code: 'config', param: 'batchSize' });
    }
  });

  it('fails with model_load_failed on a config without chronos_config', async () => {
    const dir = join(ruleDir, '..', 'broken');
    await mkdir(join(dir, 'onnx'), { recursive: true });
    await writeFile(join(dir, 'config.json'), '{"model_type":"t5"}');
    await writeFile(join(dir, 'onnx', 'model.onnx'), 'x');
    const err = await loadChronosBolt(dir).catch((e: unknown) => e);
    expect(isInferkitError(err) && err.code).toBe('model_load_failed');
    expect((err as Error).message).toMatch(/chronos_config/);
  });

  it('looks a hub id up in the one model cache without a cacheDir, and refuses calls after dispose', async () => {
    // INFERKIT_CACHE (read by src/config.ts) names an empty cache: offline, the error says it is not cached there.
    const empty = join(root, 'empty-cache');
    vi.stubEnv('INFERKIT_CACHE', empty);
    const err = await loadChronosBolt('amazon/chronos-bolt-small', { offline: true }).catch((e: unknown) => e).finally(() => vi.unstubAllEnvs());
    expect(err).toMatchObject({ code: 'not_cached' });
    expect((err as Error).message).toContain(empty);
    const m = await loadChronosBolt(ruleDir);
    await m.dispose();
    await m.dispose();
    await expect(m.predict([Float32Array.from([1])], 1)).rejects.toMatchObject({ code: 'model_not_ready' });
  });
});
