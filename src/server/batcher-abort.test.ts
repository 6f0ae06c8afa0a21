import { describe, expect, it } from 'vitest';
import { Batcher } from './batcher.js';

/** A model call that hands its signal out and waits until released or aborted. */
function holdingRun() {
  const seen: Array<AbortSignal | undefined> = [];
  let release: () => void = () => undefined;
  const run = (items: number[], signal?: AbortSignal) => {
    seen.push(signal);
    return new Promise<number[]>((resolve, reject) => {
      release = () => resolve(items);
      signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
  };
  return { seen, run, release: () => release() };
}

describe('Batcher: a running call and its clients', () => {
  it('a running call is aborted once every request in it is gone', async () => {
    const { seen, run } = holdingRun();
    const b = new Batcher(run, { maxBatchSize: 8, maxWaitMs: 5 });
    const [c1, c2] = [new AbortController(), new AbortController()];
    const p1 = b.submit([1, 2], c1.signal).catch((e: unknown) => e);
    const p2 = b.submit([3], c2.signal).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toHaveLength(1);
    c1.abort();
    expect(seen[0]?.aborted).toBe(false);
    c2.abort();
    expect(seen[0]?.aborted).toBe(true);
    expect(await p1).toBeInstanceOf(Error);
    expect(await p2).toBeInstanceOf(Error);
  });

  it('a call with a request that has no signal is never aborted', async () => {
    const { seen, run, release } = holdingRun();
    const b = new Batcher(run, { maxBatchSize: 8, maxWaitMs: 5 });
    const c1 = new AbortController();
    const p1 = b.submit([1], c1.signal).catch((e: unknown) => e);
    const p2 = b.submit([2]);
    await new Promise((r) => setTimeout(r, 20));
    c1.abort();
    expect(seen[0]).toBeUndefined();
    release();
    expect(await p2).toEqual([2]);
    expect(await p1).toEqual([1]);
  });

  it('unbatched, the request signal reaches the call', async () => {
    const { seen, run } = holdingRun();
    const b = new Batcher(run, { maxWaitMs: 0 });
    const c = new AbortController();
    const p = b.submit([1], c.signal).catch((e: unknown) => e);
    c.abort();
    expect(seen[0]).toBe(c.signal);
    expect(await p).toBeInstanceOf(Error);
  });
});
