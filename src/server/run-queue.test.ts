import { describe, expect, it } from 'vitest';
import { RunQueue } from './run-queue.js';

/** A model whose runs wait until the test lets them end; records each run's items. */
function heldModel<I>() {
  const runs: I[][] = [];
  const ends: Array<() => void> = [];
  const fails = new Set<I>();
  const run = (items: I[]) => {
    runs.push(items);
    return new Promise<string[]>((resolve, reject) => {
      ends.push(() => (items.some((i) => fails.has(i)) ? reject(new Error(`bad input among ${items.join(',')}`)) : resolve(items.map((i) => `out ${String(i)}`))));
    });
  };
  /** Ends the oldest run still held. */
  const endNext = async () => {
    ends.shift()?.();
    await settle();
  };
  return { runs, run, endNext, fails };
}

/** Lets promise callbacks and queued microtasks run (no timers). */
const settle = async () => {
  for (let i = 0; i < 10; i++) {
    await Promise.resolve();
  }
};

describe('RunQueue', () => {
  it('a lone request on an idle model starts at once, with no timer', async () => {
    const m = heldModel<string>();
    const q = new RunQueue(m.run, { runSize: 8, slots: 2 });
    const answer = q.submit(['paris']);
    await settle();
    expect(m.runs).toEqual([['paris']]);
    await m.endNext();
    expect(await answer).toEqual(['out paris']);
    expect(q.idle).toBe(true);
  });

  it('a long and a short text are not padded into one run while texts of their own length wait', async () => {
    const m = heldModel<number>();
    // Items are token lengths; one replica, runs of 3.
    const q = new RunQueue(m.run, { runSize: 3, lengthOf: (n) => n });
    void q.submit([10]); // occupies the replica
    await settle();
    const answers = [q.submit([12]), q.submit([200]), q.submit([11]), q.submit([190, 13]), q.submit([210])];
    await settle();
    await m.endNext();
    // The oldest (12) and the two closest to it; the long texts wait for a run of their own.
    expect(m.runs[1]).toEqual([12, 11, 13]);
    await m.endNext();
    expect(m.runs[2]).toEqual([200, 190, 210]);
    await m.endNext();
    expect(await Promise.all(answers)).toEqual([['out 12'], ['out 200'], ['out 11'], ['out 190', 'out 13'], ['out 210']]);
  });

  it('the oldest text always goes in the next run: a stream of short texts cannot starve a long one', async () => {
    const m = heldModel<number>();
    const q = new RunQueue(m.run, { runSize: 2, lengthOf: (n) => n });
    void q.submit([5]);
    await settle();
    void q.submit([5]);
    const long = q.submit([300]);
    for (let i = 0; i < 4; i++) {
      void q.submit([5]);
    }
    await m.endNext();
    await m.endNext();
    expect(m.runs[2]).toContain(300);
    await m.endNext();
    expect(await long).toEqual(['out 300']);
  });

  it('at c=32 with two replicas busy, each freed replica takes a full run', async () => {
    const m = heldModel<number>();
    const q = new RunQueue(m.run, { runSize: 8, slots: 2 });
    // Separate arrivals: each starts alone on an idle replica.
    void q.submit([0]);
    await settle();
    void q.submit([1]);
    await settle();
    expect(m.runs).toEqual([[0], [1]]);
    const rest = Array.from({ length: 30 }, (_, i) => q.submit([i + 2]));
    await settle();
    expect(q.waiting).toBe(30);
    while (m.runs.length < 6) {
      await m.endNext();
    }
    expect(m.runs.slice(2).map((r) => r.length)).toEqual([8, 8, 8, 6]);
    while (q.running > 0) {
      await m.endNext();
    }
    expect((await Promise.all(rest)).flat()).toHaveLength(30);
  });

  it('a request spread over several runs is answered when the run of its last text ends, in order', async () => {
    const m = heldModel<string>();
    const q = new RunQueue(m.run, { runSize: 2 });
    let answered: string[] | undefined;
    void q.submit(['a', 'b', 'c']).then((o) => (answered = o));
    await settle();
    await m.endNext();
    expect(answered).toBeUndefined();
    await m.endNext();
    expect(answered).toEqual(['out a', 'out b', 'out c']);
  });

  it('a client that goes away takes its not-yet-started texts out of the queue', async () => {
    const m = heldModel<string>();
    const q = new RunQueue(m.run, { runSize: 2 });
    const client = new AbortController();
    const gone = q.submit(['a', 'b', 'c', 'd', 'e'], client.signal).catch((e: unknown) => e);
    const other = q.submit(['x']);
    await settle();
    expect(m.runs).toEqual([['a', 'b']]);
    client.abort();
    expect(await gone).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/client disconnected/) });
    expect(q.waiting).toBe(1);
    expect(q.cancelled).toBe(1);
    await m.endNext();
    expect(m.runs[1]).toEqual(['x']);
    await m.endNext();
    expect(await other).toEqual(['out x']);
  });

  it('one bad input fails only its own request: a failed run is retried text by text', async () => {
    const m = heldModel<string>();
    const seen: Array<[number, number]> = [];
    const q = new RunQueue(m.run, { runSize: 4, onRun: (items, requests) => seen.push([items, requests]) });
    m.fails.add('bad');
    void q.submit(['hold']);
    await settle();
    const good = q.submit(['a', 'b']);
    const bad = q.submit(['bad']).catch((e: unknown) => e);
    const alsoGood = q.submit(['c']);
    await m.endNext();
    expect(m.runs[1]).toEqual(['a', 'b', 'bad', 'c']);
    for (let i = 0; i < 5; i++) {
      await m.endNext();
    }
    expect(await good).toEqual(['out a', 'out b']);
    expect(await alsoGood).toEqual(['out c']);
    expect(await bad).toBeInstanceOf(Error);
    expect(m.runs.slice(2)).toEqual([['a'], ['b'], ['bad'], ['c']]);
    expect(seen).toEqual([[1, 1], [1, 1], [1, 1], [1, 1]]);
  });
});
