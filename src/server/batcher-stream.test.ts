import { describe, expect, it } from 'vitest';
import { Batcher, type EmitOutputs } from './batcher.js';

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

describe('Batcher: early answers and calls side by side', () => {
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

  it('with maxConcurrentCalls 2, the requests of a turn beside a running call go out together at once; past the cap they wait for a call to end', async () => {
    const { calls, gates, run } = heldCalls();
    const b = new Batcher(run, { maxBatchSize: 8, maxWaitMs: 5, maxConcurrentCalls: 2 });
    const one = b.submit([1]);
    await tick();
    const more = [b.submit([2]), b.submit([3])];
    await tick();
    // Beside the running call: one call of the turn's two requests, not held back.
    expect(calls).toEqual([[1], [2, 3]]);
    const four = b.submit([4]);
    await tick();
    // Two calls run: the cap. The request waits for one to end, then goes out.
    expect(calls).toHaveLength(2);
    gates.shift()?.();
    await tick();
    expect(calls).toEqual([[1], [2, 3], [4]]);
    gates.forEach((g) => g());
    expect(await Promise.all([one, ...more, four])).toEqual([[1], [2], [3], [4]]);
  });
});
