import { describe, expect, it } from 'vitest';
import { Batcher } from './batcher.js';

/** A model call that doubles each item and records the call sizes. */
function recorder() {
  const calls: number[][] = [];
  const run = async (items: number[]) => {
    calls.push([...items]);
    await new Promise((r) => setTimeout(r, 5));
    return items.map((x) => x * 2);
  };
  return { calls, run };
}

describe('Batcher', () => {
  it('merges concurrent requests into one call and gives each its own slice', async () => {
    const { calls, run } = recorder();
    const b = new Batcher(run, { maxBatchSize: 8, maxWaitMs: 10 });
    const out = await Promise.all([b.submit([1, 2]), b.submit([3]), b.submit([4, 5, 6])]);
    expect(out).toEqual([[2, 4], [6], [8, 10, 12]]);
    expect(calls).toEqual([[1, 2, 3, 4, 5, 6]]);
  });

  it('never exceeds maxBatchSize except for one oversized request, which runs whole', async () => {
    const { calls, run } = recorder();
    const b = new Batcher(run, { maxBatchSize: 3, maxWaitMs: 5 });
    const out = await Promise.all([b.submit([1, 2]), b.submit([3, 4]), b.submit([5, 6, 7, 8]), b.submit([9])]);
    expect(out).toEqual([[2, 4], [6, 8], [10, 12, 14, 16], [18]]);
    expect(calls).toEqual([[1, 2], [3, 4], [5, 6, 7, 8], [9]]);
  });

  it('is disabled by maxWaitMs 0 or maxBatchSize ≤ 1: one call per request', async () => {
    for (const opts of [{ maxWaitMs: 0 }, { maxBatchSize: 1 }]) {
      const { calls, run } = recorder();
      const b = new Batcher(run, opts);
      expect(b.enabled).toBe(false);
      await Promise.all([b.submit([1]), b.submit([2])]);
      expect(calls).toEqual([[1], [2]]);
    }
  });

  it('rejects every request of a failing call and keeps working', async () => {
    let fail = true;
    const b = new Batcher(async (items: number[]) => {
      if (fail) {
        throw new Error('boom');
      }
      return items;
    }, { maxBatchSize: 4, maxWaitMs: 5 });
    const r = await Promise.allSettled([b.submit([1]), b.submit([2])]);
    expect(r.map((x) => x.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await b.submit([3])).toEqual([3]);
  });

  it('rejects when the model returns the wrong number of outputs', async () => {
    const b = new Batcher(async (items: number[]) => items.slice(1), { maxBatchSize: 4, maxWaitMs: 1 });
    await expect(b.submit([1, 2])).rejects.toMatchObject({ code: 'internal' });
  });

  it('reports merged sizes', async () => {
    const seen: Array<[number, number]> = [];
    const b = new Batcher(async (items: number[]) => items, { maxBatchSize: 8, maxWaitMs: 10, onBatch: (n, r) => seen.push([n, r]) });
    await Promise.all([b.submit([1]), b.submit([2, 3])]);
    expect(seen).toEqual([[3, 2]]);
  });

  it('isolateFailures: a merged call that fails is retried per request, so only the bad request fails', async () => {
    const calls: number[][] = [];
    const run = async (items: number[]) => {
      calls.push([...items]);
      if (items.includes(-1)) {
        throw new Error('negative input');
      }
      return items.map((x) => x * 2);
    };
    const b = new Batcher(run, { maxBatchSize: 8, maxWaitMs: 10, isolateFailures: true });
    expect(b.idle).toBe(true);
    const out = await Promise.allSettled([b.submit([1]), b.submit([2, -1]), b.submit([3])]);
    expect(out.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(out[0]).toMatchObject({ value: [2] });
    expect(out[2]).toMatchObject({ value: [6] });
    expect(calls).toEqual([[1, 2, -1, 3], [1], [2, -1], [3]]);
    await new Promise((r) => setImmediate(r)); // the merged call's bookkeeping ends after its replies
    expect(b.idle).toBe(true);
  });

  it('an idle model starts a lone request at once: the wait window is not applied (recorded decision)', async () => {
    const { calls, run } = recorder();
    // A window of a minute: were it applied, the request would still be waiting when the test times out.
    const b = new Batcher(run, { maxBatchSize: 8, maxWaitMs: 60_000 });
    expect(await b.submit([1])).toEqual([2]);
    expect(b.decisions).toEqual({ idle: 1, busy: 0, full: 0, window: 0, overlap: 0 });
    expect(calls).toEqual([[1]]);
  });

  it('requests arriving while the model is busy merge into the next call, which starts when the running one ends', async () => {
    const { calls, run } = recorder();
    const b = new Batcher(run, { maxBatchSize: 8, maxWaitMs: 60_000 });
    const first = b.submit([1]);
    await new Promise((r) => setImmediate(r)); // the first call has started
    const later = [b.submit([2]), b.submit([3, 4])];
    expect(await Promise.all([first, ...later])).toEqual([[2], [4], [6, 8]]);
    expect(calls).toEqual([[1], [2, 3, 4]]);
    expect(b.decisions).toMatchObject({ idle: 1, busy: 1 });
  });

  it('waitWhenIdle restores the window: the first request of an idle model waits for others', async () => {
    const { calls, run } = recorder();
    const b = new Batcher(run, { maxBatchSize: 8, maxWaitMs: 20, waitWhenIdle: true });
    const first = b.submit([1]);
    await new Promise((r) => setImmediate(r));
    const second = b.submit([2]);
    expect(await Promise.all([first, second])).toEqual([[2], [4]]);
    expect(calls).toEqual([[1, 2]]);
    expect(b.decisions).toMatchObject({ idle: 0, window: 1 });
  });

  it('maxConcurrentCalls 2: a request arriving while one call runs starts beside it; later ones merge', async () => {
    // Calls end only when released, so a loaded machine's late timers cannot end the first call early.
    const calls: number[][] = [];
    const release: (() => void)[] = [];
    const run = (items: number[]): Promise<number[]> => {
      calls.push([...items]);
      return new Promise((resolve) => release.push(() => resolve(items.map((x) => x * 2))));
    };
    const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
    const b = new Batcher(run, { maxBatchSize: 8, maxWaitMs: 5, maxConcurrentCalls: 2 });
    const first = b.submit([1]);
    await tick();
    const second = b.submit([2]);
    await tick();
    expect(calls).toEqual([[1], [2]]);
    const rest = [b.submit([3]), b.submit([4])];
    await tick();
    expect(calls).toEqual([[1], [2]]); // both slots busy: 3 and 4 wait, merged
    release.splice(0).forEach((go) => go()); // both calls end in the same turn: what queued goes out as one
    for (let i = 0; i < 200 && calls.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(calls).toEqual([[1], [2], [3, 4]]);
    release.splice(0).forEach((go) => go());
    expect(await Promise.all([first, second, ...rest])).toEqual([[2], [4], [6], [8]]);
    expect(b.decisions).toMatchObject({ idle: 1, overlap: 1, busy: 1 });
  });
});
