import { describe, expect, it } from 'vitest';
import { RunQueue } from './run-queue.js';

/** A queue of numbers whose size is the number itself; runs are held until released, and recorded. */
function heldQueue(maxRunSize: number, parallel = 1, fail?: (items: number[]) => boolean, maxRunTokens?: number) {
  const runs: number[][] = [];
  const gates: Array<() => void> = [];
  const queue = new RunQueue<number, string>({
    maxRunSize,
    ...(maxRunTokens !== undefined ? { maxRunTokens } : {}),
    parallelRuns: () => parallel,
    size: (n) => n,
    start: async (items) => {
      runs.push(items);
      await new Promise<void>((r) => gates.push(r));
      if (fail?.(items)) {
        throw new Error(`run ${items.join(',')} failed`);
      }
      return items.map((n) => `out${n}`);
    },
  });
  const release = async (): Promise<void> => {
    gates.splice(0).forEach((g) => g());
    await new Promise((r) => setTimeout(r, 0));
  };
  return { queue, runs, release };
}

const turn = () => new Promise((r) => setTimeout(r, 0));

describe('RunQueue', () => {
  it('runs a lone call as its sorted, evened chunks (17 at most 8: 6, 6, 5, largest first) and answers in order', async () => {
    const { queue, runs, release } = heldQueue(8);
    const items = Array.from({ length: 17 }, (_, i) => (i * 7) % 17);
    const out = queue.submit(items);
    await turn();
    expect(runs.map((r) => r.length)).toEqual([6, 6]);
    await release();
    await release();
    expect(runs.map((r) => r.length)).toEqual([6, 6, 5]);
    expect(runs.map((r) => Math.max(...r))).toEqual([16, 10, 4]);
    await release();
    expect(await out).toEqual(items.map((n) => `out${n}`));
  });

  it('a call that arrives while runs are out shares the next runs with what waits, packed by size around the oldest call\'s largest item', async () => {
    const { queue, runs, release } = heldQueue(4);
    // Call A: 12 items; two runs of 4 go out at once (window 2), four (10, 11, 20, 21) wait.
    const a = queue.submit([40, 41, 42, 43, 30, 31, 32, 33, 10, 11, 20, 21]);
    await turn();
    expect(runs).toEqual([[40, 41, 42, 43], [30, 31, 32, 33]]);
    // Call B arrives with items near A's waiting ones.
    const b = queue.submit([22, 12, 23, 13]);
    await release();
    // Each call sorted on its own would run [20, 21, 10, 11] and [22, 12, 23, 13], padded to 21 and 23;
    // the queue runs the large four together and the small four together.
    expect(runs.slice(2)).toEqual([[20, 21, 22, 23], [10, 11, 12, 13]]);
    await release();
    expect(await a).toEqual([40, 41, 42, 43, 30, 31, 32, 33, 10, 11, 20, 21].map((n) => `out${n}`));
    expect(await b).toEqual(['out22', 'out12', 'out23', 'out13']);
  });

  it('calls submitted in the same turn share runs: the least padding over all their items', async () => {
    const { queue, runs, release } = heldQueue(4);
    const a = queue.submit([20, 5, 21, 6]);
    const b = queue.submit([7, 22, 4, 23]);
    await turn();
    expect(runs.map((r) => [...r].sort((x, y) => x - y))).toEqual([[20, 21, 22, 23], [4, 5, 6, 7]]);
    await release();
    expect(await a).toEqual(['out20', 'out5', 'out21', 'out6']);
    expect(await b).toEqual(['out7', 'out22', 'out4', 'out23']);
  });

  it('with several calls about, runs are full (9 items, at most 8: 8 then 1, joined by what comes next); a lone call\'s 9 run as 5 + 4', async () => {
    const shared = heldQueue(8, 1);
    const calls = [shared.queue.submit([1, 2, 3, 4, 5]), shared.queue.submit([6, 7, 8, 9])];
    await turn();
    expect(shared.runs.map((r) => r.length)).toEqual([8]);
    const late = shared.queue.submit([10]);
    await shared.release();
    expect(shared.runs.map((r) => r.length)).toEqual([8, 2]);
    await shared.release();
    await Promise.all([...calls, late]);
    const lone = heldQueue(8, 1);
    const one = lone.queue.submit([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await turn();
    await lone.release();
    await lone.release();
    expect(lone.runs.map((r) => r.length)).toEqual([5, 4]);
    await one;
  });

  it('hands each call the indices and outputs of its own items as each run ends', async () => {
    const { queue, release } = heldQueue(2);
    const chunks: Array<[number[], string[]]> = [];
    const a = queue.submit([3, 1, 2], { onChunk: (i, o) => chunks.push([[...i], [...o]]) });
    await turn();
    await release();
    expect(chunks).toEqual([[[0, 2], ['out3', 'out2']], [[1], ['out1']]]);
    await a;
  });

  it('a failed run rejects the calls with items in it, once their running runs end, and drops their waiting items; other calls go on', async () => {
    const { queue, runs, release } = heldQueue(2, 1, (items) => items.includes(99));
    const bad = queue.submit([99, 98, 1, 2, 3, 4]);
    const badError = bad.then(() => undefined, (e: unknown) => e);
    const good = queue.submit([50, 51]);
    await turn();
    // The oldest call's runs go first: [99, 98] (fails) and [3, 4], which still runs to its end.
    expect(runs.map((r) => [...r].sort((x, y) => x - y))).toEqual([[98, 99], [3, 4]]);
    await release();
    expect(await badError).toMatchObject({ message: 'run 99,98 failed' });
    // Its waiting items (1, 2) are dropped; the other call runs.
    expect(runs.slice(2)).toEqual([[50, 51]]);
    await release();
    expect(await good).toEqual(['out50', 'out51']);
    expect(runs.flat()).not.toContain(1);
    expect(queue.waiting).toBe(0);
  });

  it('an aborted call\'s waiting items never run; it rejects with "Inference aborted" once its running runs end', async () => {
    const { queue, runs, release } = heldQueue(2);
    const abort = new AbortController();
    const call = queue.submit([9, 8, 7, 6, 5, 4], { signal: abort.signal });
    const callError = call.then(() => undefined, (e: unknown) => e);
    await turn();
    expect(runs).toEqual([[9, 8], [7, 6]]);
    abort.abort(new Error('client gone'));
    await release();
    expect(await callError).toMatchObject({ code: 'inference_failed', message: 'Inference aborted' });
    expect(runs).toEqual([[9, 8], [7, 6]]);
    expect(queue.waiting).toBe(0);
    await expect(queue.submit([1], { signal: abort.signal })).rejects.toThrow('Inference aborted');
  });

  it('on session replicas, cuts a lone call into one run per idle replica at least (6 items, 2 replicas: 3 + 3, not one run of 6)', async () => {
    const { queue, runs, release } = heldQueue(8, 2);
    const out = queue.submit([1, 9, 2, 8, 3, 7]);
    await turn();
    expect(runs).toEqual([[9, 8, 7], [1, 2, 3]]);
    await release();
    expect(await out).toEqual(['out1', 'out9', 'out2', 'out8', 'out3', 'out7']);
    // One replica: one run, as before.
    const single = heldQueue(8, 1);
    const one = single.queue.submit([1, 9, 2, 8, 3, 7]);
    await turn();
    expect(single.runs.map((r) => r.length)).toEqual([6]);
    await single.release();
    await one;
  });

  it('with every run busy, a few texts of another call wait for a run to free rather than going out as a small run ahead', async () => {
    const { queue, runs, release } = heldQueue(4, 2);
    const a = queue.submit([10, 11, 12, 13, 20, 21, 22, 23]);
    await turn();
    expect(runs).toHaveLength(2);
    const b = queue.submit([30]);
    const c = queue.submit([31, 32]);
    await turn();
    // Two replicas busy, three texts waiting: less than a run, not handed over ahead.
    expect(runs).toHaveLength(2);
    const d = queue.submit([33]);
    await turn();
    // A full run's worth: handed over ahead.
    expect(runs.slice(2)).toEqual([[30, 31, 32, 33]]);
    await release();
    await Promise.all([a, b, c, d]);
  });

  describe('packed runs (maxRunTokens)', () => {
    it('cuts runs by tokens, oldest items first, evenly among the runs that can start and within the budget', async () => {
      // Budget 100, one session: 250 waiting tokens need 3 runs, evened to 84 tokens at most.
      const { queue, runs, release } = heldQueue(64, 1, undefined, 100);
      const items = [30, 10, 40, 20, 50, 30, 10, 20, 40];
      const out = queue.submit(items);
      await turn();
      // The first run (84 tokens at most), then, as a whole budget still waits, a run of up to 100 handed over ahead.
      expect(runs).toEqual([[30, 10, 40], [20, 50, 30]]);
      await release();
      // What is left (70 tokens, the lone call's) goes as one run.
      expect(runs.slice(2)).toEqual([[10, 20, 40]]);
      await release();
      expect(await out).toEqual(items.map((n) => `out${n}`));
    });

    it('shares what waits between idle replicas, and hands a run over ahead only when a full budget waits', async () => {
      const { queue, runs, release } = heldQueue(64, 2, undefined, 100);
      const a = queue.submit([20, 20, 20, 20]);
      await turn();
      // Two idle replicas: 80 tokens split into two runs of 40 (a lone call also gets one run ahead: nothing is left).
      expect(runs).toEqual([[20, 20], [20, 20]]);
      // Another call while both run: 60 tokens are less than a budget, so they wait for a free replica...
      const b = queue.submit([30, 30]);
      await turn();
      expect(runs).toHaveLength(2);
      // ...and a third call fills the budget: one run of up to 100 tokens goes over ahead.
      const c = queue.submit([25, 25]);
      await turn();
      expect(runs.slice(2)).toEqual([[30, 30, 25]]);
      await release();
      expect(runs.slice(3)).toEqual([[25]]);
      await release();
      expect(await a).toHaveLength(4);
      expect(await b).toEqual(['out30', 'out30']);
      expect(await c).toEqual(['out25', 'out25']);
    });

    it('runs an item larger than the budget alone, and caps runs at maxRunSize items', async () => {
      const { queue, runs, release } = heldQueue(3, 1, undefined, 100);
      const out = queue.submit([150, 1, 1, 1, 1]);
      await turn();
      expect(runs[0]).toEqual([150]);
      await release();
      await release();
      expect(runs.slice(1)).toEqual([[1, 1, 1], [1]]);
      await release();
      expect(await out).toHaveLength(5);
    });
  });

  it('starts the next run before handing a finished run\'s outputs on (the session does not wait on the callers)', async () => {
    const { queue, runs, release } = heldQueue(2);
    const seen: number[] = [];
    // A lone call of 6: runs of 2, one running and one handed over ahead.
    const a = queue.submit([5, 5, 5, 5, 5, 5], { onChunk: () => seen.push(runs.length) });
    await turn();
    expect(runs).toHaveLength(2);
    await release();
    // The first run's outputs reached the caller after the third run had started.
    expect(seen).toEqual([3, 3]);
    await release();
    expect(await a).toHaveLength(6);
  });
});
