import { describe, expect, it } from 'vitest';
import { releasedAfterEach, TINY_BERT as MODEL, tinyBertFeeds as feeds } from '../../../test/fixtures/tiny-bert-feeds.js';
import { createSession, int64Tensor } from '../ort.js';
import { WorkerSessionPool } from './session-pool.js';

const LOAD_MS = 30_000;
const open = releasedAfterEach();

describe('createSession({ worker: true, replicas })', () => {
  it('replicas answer exactly what one in-thread session answers, runs given at once spread over them', async () => {
    const local = await createSession(MODEL);
    const pool = await createSession(MODEL, { worker: true, replicas: 3 });
    open.push(local, pool);
    expect(pool).toBeInstanceOf(WorkerSessionPool);
    expect(pool.parallelRuns).toBe(3);
    expect(pool.inputNames).toEqual(local.inputNames);
    expect(pool.idleRuns).toBe(3);
    expect(pool.queuedRuns).toBe(0);
    // Eight runs at once: three start, five queue; each answer is its own run's.
    const runs = Array.from({ length: 8 }, (_, k) => pool.run(feeds(2, 5 + k, k)));
    await Promise.resolve(); // runs handed over together are dispatched together
    expect(pool.idleRuns).toBe(0);
    expect(pool.queuedRuns).toBe(5);
    const answers = await Promise.all(runs);
    for (let k = 0; k < 8; k++) {
      const want = await local.run(feeds(2, 5 + k, k));
      expect(answers[k].logits.dims).toEqual([2, 5 + k, 9]);
      expect(Array.from(answers[k].logits.data as Float32Array)).toEqual(Array.from(want.logits.data as Float32Array));
    }
    expect([pool.idleRuns, pool.queuedRuns]).toEqual([3, 0]);
  }, LOAD_MS);

  it('replicaThreads sets each replica\'s threads; one entry is a single worker session', async () => {
    const pool = await createSession(MODEL, { worker: true, replicaThreads: [2, 1] });
    const one = await createSession(MODEL, { worker: true, replicaThreads: [2] });
    open.push(pool, one);
    expect(pool.parallelRuns).toBe(2);
    expect(one).not.toBeInstanceOf(WorkerSessionPool);
    expect(one.idleRuns).toBe(1);
    // One worker: runs wait in it behind the running one; each one's compute time starts when it does, so
    // the runs' time (busyMs) is never more than the wall time they took together.
    const busy0 = one.busyMs ?? Number.NaN;
    const t0 = performance.now();
    const four = [0, 1, 2, 3].map((k) => one.run(feeds(8, 120, k)));
    expect([one.idleRuns, one.queuedRuns]).toEqual([0, 3]);
    await Promise.all(four);
    const wall = performance.now() - t0;
    expect([one.idleRuns, one.queuedRuns]).toEqual([1, 0]);
    expect((one.busyMs ?? Number.NaN) - busy0).toBeGreaterThan(0);
    expect((one.busyMs ?? Number.NaN) - busy0).toBeLessThanOrEqual(wall);
    await expect(pool.run(feeds(1, 4))).resolves.toHaveProperty('logits');
  }, LOAD_MS);

  it('a latency session takes lone runs on an idle pool; runs that come together go to the replicas', async () => {
    const local = await createSession(MODEL);
    const pool = (await createSession(MODEL, { worker: true, replicas: 2, latencyThreads: 2 })) as WorkerSessionPool;
    open.push(local, pool);
    const want = await local.run(feeds(2, 6, 3));
    for (let k = 0; k < 3; k++) {
      const got = await pool.run(feeds(2, 6, 3));
      expect(Array.from(got.logits.data as Float32Array)).toEqual(Array.from(want.logits.data as Float32Array));
    }
    expect(pool.runCounts).toEqual({ replicas: 0, latency: 3 });
    // Four at once: the pool is not idle with one run waiting, so all four go to the two replicas.
    await Promise.all(Array.from({ length: 4 }, () => pool.run(feeds(2, 6))));
    expect(pool.runCounts).toEqual({ replicas: 4, latency: 3 });
    expect(pool.parallelRuns).toBe(2);
  }, LOAD_MS);

  it('tuneLatency keeps the latency session only when it is at least 10% faster, and lone runs follow that choice', async () => {
    const plain = (await createSession(MODEL, { worker: true, replicas: 2 })) as WorkerSessionPool;
    const pool = (await createSession(MODEL, { worker: true, replicas: 2, latencyThreads: 2 })) as WorkerSessionPool;
    open.push(plain, pool);
    expect(await plain.tuneLatency(() => feeds(1, 16))).toBeUndefined();
    const tuned = await pool.tuneLatency(() => feeds(1, 16));
    expect(tuned).toBeDefined();
    const { kept, latencyMs, replicaMs } = tuned as { kept: boolean; latencyMs: number; replicaMs: number };
    expect(latencyMs).toBeGreaterThan(0);
    expect(replicaMs).toBeGreaterThan(0);
    expect(kept).toBe(latencyMs <= 0.9 * replicaMs);
    expect(pool.hasLatencySession).toBe(kept);
    const before = pool.runCounts;
    await pool.run(feeds(1, 4));
    expect(pool.runCounts.latency - before.latency).toBe(kept ? 1 : 0);
  }, LOAD_MS);

  it('bad replica settings are config errors naming the field; replicas without worker threads are refused', async () => {
    await expect(createSession(MODEL, { worker: true, replicas: 0 })).rejects.toMatchObject({ code: 'config', param: 'replicas' });
    await expect(createSession(MODEL, { replicas: 2 })).rejects.toMatchObject({ code: 'config', message: expect.stringContaining('worker: true') });
    await expect(createSession(MODEL, { worker: true, replicaThreads: [1, 0] })).rejects.toMatchObject({ code: 'config' });
    await expect(createSession(MODEL, { worker: true, replicas: 2, latencyThreads: 0 })).rejects.toMatchObject({ code: 'config', param: 'latencyThreads' });
  });

  it('a graph that cannot load rejects with model_load_failed (no replica left running)', async () => {
    await expect(createSession(new Uint8Array([1, 2, 3, 4]), { worker: true, replicas: 2 })).rejects.toMatchObject({ code: 'model_load_failed' });
  }, LOAD_MS);

  it('a failing run fails alone; release() fails queued runs with model_not_ready and later runs too', async () => {
    const pool = await createSession(MODEL, { worker: true, replicas: 2 });
    const bad = { ...feeds(1, 4), input_ids: int64Tensor(new BigInt64Array(3), [1, 3]) };
    await expect(pool.run(bad)).rejects.toMatchObject({ code: 'inference_failed' });
    await expect(pool.run(feeds(1, 4))).resolves.toHaveProperty('logits');
    const busy = [pool.run(feeds(32, 64)), pool.run(feeds(32, 64))].map((p) => p.catch((e: unknown) => e));
    const queued = expect(pool.run(feeds(1, 4))).rejects.toMatchObject({ code: 'model_not_ready' });
    await pool.release();
    await queued;
    await Promise.all(busy);
    await expect(pool.run(feeds(1, 4))).rejects.toMatchObject({ code: 'model_not_ready' });
  }, LOAD_MS);
});
