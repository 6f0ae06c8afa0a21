import { describe, expect, it } from 'vitest';
import { balancedOverlap, Batcher, type EmitOutputs } from './batcher.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

/** A model whose calls are recorded in `calls` and each held until its gate (in `gates`) is called. */
function heldCalls() {
  const calls: number[][] = [];
  const gates: Array<() => void> = [];
  const run = async (items: number[]) => {
    calls.push([...items]);
    await new Promise<void>((r) => gates.push(r));
    return items;
  };
  return { calls, gates, run };
}

describe('Batcher: early answers and spare capacity', () => {
  it('answers each request as soon as the model emits all its items, before the merged call ends', async () => {
    const answered: string[] = [];
    let finish: () => void = () => undefined;
    const ended = new Promise<void>((r) => (finish = r));
    const run = async (items: number[], _signal?: AbortSignal, emit?: EmitOutputs<number>) => {
      // The model answers items 2 and 0 first (as a sorted run would), the rest at the end.
      emit?.([2, 0], [items[2] * 10, items[0] * 10]);
      await ended;
      return items.map((x) => x * 10);
    };
    const b = new Batcher(run, { maxBatchSize: 8, maxWaitMs: 5, waitWhenIdle: true });
    const first = b.submit([1]).then((out) => (answered.push('first'), out));
    const second = b.submit([2, 3]).then((out) => (answered.push('second'), out));
    // Items: [1 | 2, 3]. Emitting 2 and 0 completes the first request only (the second has item 1 left).
    await new Promise((r) => setTimeout(r, 30));
    expect(answered).toEqual(['first']);
    expect(await first).toEqual([10]);
    finish();
    expect(await second).toEqual([20, 30]);
  });

  it('a failing call rejects only the requests it had not answered yet', async () => {
    const run = async (items: number[], _signal?: AbortSignal, emit?: EmitOutputs<number>) => {
      emit?.([0], [items[0]]);
      await tick();
      throw new Error('second run broke');
    };
    const b = new Batcher(run, { maxBatchSize: 8, maxWaitMs: 5, waitWhenIdle: true });
    const [a, c] = await Promise.allSettled([b.submit([7]), b.submit([8])]);
    expect(a).toEqual({ status: 'fulfilled', value: [7] });
    expect(c).toMatchObject({ status: 'rejected', reason: { message: 'second run broke' } });
  });

  it('with maxConcurrentCalls 2, a second call starts only while the model says it has room (hasSpareCapacity)', async () => {
    let spare = false;
    const { calls, gates, run } = heldCalls();
    const b = new Batcher(run, { maxBatchSize: 8, maxWaitMs: 5, maxConcurrentCalls: 2, hasSpareCapacity: () => spare });
    const one = b.submit([1]);
    await tick();
    const more = [b.submit([2]), b.submit([3])];
    await tick();
    // No room: the two requests wait together instead of starting a one-item call beside the first.
    expect(calls).toEqual([[1]]);
    spare = true;
    const four = b.submit([4]);
    await tick();
    expect(calls).toEqual([[1], [2, 3, 4]]);
    gates.forEach((g) => g());
    expect(await Promise.all([one, ...more, four])).toEqual([[1], [2], [3], [4]]);
  });

  it('with overlapMinItems, a call beside running ones waits until as many items queue as each busy run holds, or maxWaitMs', async () => {
    // Two replicas: one busy with a 4-item call, one idle. balancedOverlap asks for 4 queued items.
    let busyRuns = 0;
    const calls: number[][] = [];
    const gates: Array<() => void> = [];
    const run = async (items: number[]) => {
      calls.push([...items]);
      busyRuns++;
      await new Promise<void>((r) => gates.push(r));
      busyRuns--;
      return items;
    };
    const b = new Batcher(run, { maxBatchSize: 32, maxWaitMs: 60_000, maxConcurrentCalls: 3, hasSpareCapacity: () => busyRuns < 2, overlapMinItems: balancedOverlap(2, () => 2 - busyRuns) });
    const first = b.submit([1, 2, 3, 4]);
    await tick();
    expect(calls).toEqual([[1, 2, 3, 4]]);
    const small = [b.submit([5]), b.submit([6, 7])];
    await tick();
    // Three items queued, a replica idle: not yet worth a run beside the 4-item one.
    expect(calls).toHaveLength(1);
    const fourth = b.submit([8]);
    await tick();
    expect(calls).toEqual([[1, 2, 3, 4], [5, 6, 7, 8]]);
    // Below the minimum, the wait ends at maxWaitMs.
    const quick = new Batcher(run, { maxBatchSize: 32, maxWaitMs: 20, maxConcurrentCalls: 3, hasSpareCapacity: () => true, overlapMinItems: () => 100 });
    const q1 = quick.submit([9]);
    await tick();
    const q2 = quick.submit([10]);
    await tick();
    expect(calls).toHaveLength(3);
    await new Promise((r) => setTimeout(r, 40));
    expect(calls.slice(3)).toEqual([[10]]);
    gates.forEach((g) => g());
    expect(await Promise.all([first, ...small, fourth, q1, q2])).toEqual([[1, 2, 3, 4], [5], [6, 7], [8], [9], [10]]);
  });
});
