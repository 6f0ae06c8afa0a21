import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_BOLT_LIKE, writeChronosFixtureRepo } from '../../onnx/model-repo.js';
import { loadChronosBolt } from './load-chronos-bolt.js';

let root: string;
let ruleDir: string;
let boltDir: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-bolt-replicas-'));
  ruleDir = join(root, 'rule');
  boltDir = join(root, 'bolt');
  await writeChronosFixtureRepo(ruleDir, { contextLength: 8, predictionLength: 3, patchSize: 4, quantiles: [0.1, 0.5, 0.9], trend: 1 });
  await writeChronosFixtureRepo(boltDir, TINY_BOLT_LIKE);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** `n` series of different lengths and levels. */
const series = (n: number): Float32Array[] => Array.from({ length: n }, (_, i) => Float32Array.from({ length: 3 + ((i * 7) % 40) }, (_, t) => Math.sin(t + i) * 10 + i));

describe('Chronos-Bolt on session replicas', () => {
  it('answers exactly what one session answers, a lone call cut into one even run per idle replica, a call beside it into full runs', async () => {
    const runs: number[] = [];
    await using one = asyncDisposable(await loadChronosBolt(ruleDir, {}));
    await using pooled = asyncDisposable(await loadChronosBolt(ruleDir, { session: { worker: true, replicas: 3 }, onRun: (rows) => runs.push(rows) }));
    expect(pooled.model.sharesRunQueue).toBe(true);
    for (const n of [10, 1, 2]) {
      runs.length = 0;
      const batch = series(n);
      const [a, b] = [await pooled.model.predict(batch, 3), await one.model.predict(batch, 3)];
      expect(a.values.map((v) => Array.from(v))).toEqual(b.values.map((v) => Array.from(v)));
      expect(runs).toEqual({ 10: [4, 3, 3], 1: [1], 2: [1, 1] }[n]);
    }
    // A call that comes while two replicas run another gets one chunk, for the one idle replica.
    runs.length = 0;
    const first = pooled.model.predict(series(2), 3);
    await null; // the queue hands the first call's two runs to two replicas
    const second = pooled.model.predict(series(6), 3);
    await Promise.all([first, second]);
    expect(runs).toEqual([1, 1, 6]);
  });

  it('calls that come while a run is out share the next run (one session: 8 series, then 2 + 3 together), each answering what it answers alone', async () => {
    const runs: number[] = [];
    await using one = asyncDisposable(await loadChronosBolt(ruleDir, { session: { worker: true }, onRun: (rows) => runs.push(rows) }));
    const [a, b, c] = [series(8), series(2).map((x) => x.map((v) => v + 1)), series(3).map((x) => x.map((v) => v - 1))];
    const first = one.model.predict(a, 3);
    await null; // the first call's run is handed to the worker
    const later = [one.model.predict(b, 3), one.model.predict(c, 3)];
    const got = await Promise.all([first, ...later]);
    expect(runs).toEqual([8, 5]);
    for (const [i, batch] of [a, b, c].entries()) {
      const alone = await one.model.predict(batch, 3);
      expect(got[i].values.map((v) => Array.from(v))).toEqual(alone.values.map((v) => Array.from(v)));
    }
  });

  it('keeps batchSize as the cap, and a transformer graph answers what one session answers (latency session beside the replicas)', async () => {
    const runs: number[] = [];
    await using one = asyncDisposable(await loadChronosBolt(boltDir, { batchSize: 3 }));
    await using pooled = asyncDisposable(await loadChronosBolt(boltDir, { batchSize: 3, session: { worker: true, replicas: 2, latencyThreads: 2 }, onRun: (rows) => runs.push(rows) }));
    const batch = series(10);
    const [a, b] = [await pooled.model.predict(batch, 4), await one.model.predict(batch, 4)];
    a.values.forEach((v, i) => v.forEach((x, k) => expect(x).toBeCloseTo(b.values[i][k], 4)));
    expect(a.values.every((v) => v.every(Number.isFinite))).toBe(true);
    expect(runs).toEqual([3, 3, 2, 2]);
  });

  it('hands each run\'s series over as it ends (onChunk), the same rows the call returns', async () => {
    await using pooled = asyncDisposable(await loadChronosBolt(ruleDir, { session: { worker: true, replicas: 2 } }));
    const seen = new Map<number, number[]>();
    const chunks: number[][] = [];
    const out = await pooled.model.predict(series(7), 2, {
      onChunk: (indices, f) => {
        chunks.push([...indices]);
        indices.forEach((bi, k) => seen.set(bi, Array.from(f.values[k])));
        expect(f.levels).toEqual([0.1, 0.5, 0.9]);
      },
    });
    // One run per replica; they end in either order, and each is handed over as it ends.
    expect(chunks.map((c) => c.length).sort()).toEqual([3, 4]);
    expect([...seen.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    out.values.forEach((v, i) => expect(seen.get(i)).toEqual(Array.from(v)));
  });

  it('an abort stops between runs: the runs handed over finish, nothing is left queued', async () => {
    const controller = new AbortController();
    const runs: number[] = [];
    await using pooled = asyncDisposable(
      await loadChronosBolt(ruleDir, { batchSize: 1, session: { worker: true, replicas: 2 }, onRun: (rows) => (runs.push(rows), runs.length === 2 && controller.abort(new Error('client gone'))) }),
    );
    await expect(pooled.model.predict(series(8), 3, { signal: controller.signal })).rejects.toThrow('client gone');
    expect(runs).toEqual([1, 1]);
    const again = await pooled.model.predict(series(4), 3);
    expect(again.values).toHaveLength(4);
  });

  it('a run that fails (the replicas released under the call) surfaces as inference_failed, no rejection left unhandled; a disposed model says model_not_ready', async () => {
    const pooled = await loadChronosBolt(ruleDir, { batchSize: 1, session: { worker: true, replicas: 2 } });
    const call = pooled.predict(series(8), 3);
    const disposed = pooled.dispose();
    await expect(call).rejects.toMatchObject({ code: 'inference_failed' });
    await disposed;
    await expect(pooled.predict(series(1), 3)).rejects.toMatchObject({ code: 'model_not_ready' });
  });
});

/** `await using` for a model. */
function asyncDisposable<T extends { dispose(): Promise<void> }>(model: T): { model: T; [Symbol.asyncDispose](): Promise<void> } {
  return { model, [Symbol.asyncDispose]: () => model.dispose() };
}
