import { readFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tinyBertFeeds } from '../../../test/fixtures/tiny-bert-feeds.js';
import { createSession, type OrtSession } from '../ort.js';
import { measureModelLoad, tracksLoadContext } from './measure-model-load.js';
import type { ModelMemory } from './model-memory.js';

/** The tiny BERT token classifier KServe's answers were recorded on (inline weights, about 4 MB). */
const MODEL = join(process.cwd(), '../shared/conformance/kserve-hf/model/onnx/model.onnx');

/** Rejects after `ms`: a step that should not wait on another load's phase fails instead of hanging. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A load as a server runs it: a session opened on the graph, one warm-up run. */
async function openAndRun(): Promise<OrtSession> {
  const session = await createSession(MODEL, { intraOpThreads: 1 });
  await session.run(tinyBertFeeds(4, 16));
  return session;
}

describe('measureModelLoad: each model\'s sessions open alone, its downloads beside the others', () => {
  it('two loads at once: B\'s download runs while A\'s phase holds the lock, then the phases follow one another', async () => {
    const aInPhase = deferred();
    const bDownloaded = deferred();
    const sessions: OrtSession[] = [];
    try {
      const a = measureModelLoad(async () => {
        const s = await openAndRun();
        aInPhase.resolve();
        // Only possible if B's download is not held back by A's phase.
        await within(bDownloaded.promise, 20_000, "B's download during A's phase");
        await s.run(tinyBertFeeds(2, 8, 1));
        return s;
      });
      const b = measureModelLoad(async () => {
        await aInPhase.promise;
        await readFile(MODEL); // stands in for a download: no session, no lock
        bDownloaded.resolve();
        return openAndRun();
      });
      const [ra, rb] = await Promise.all([a, b]);
      sessions.push(ra.value, rb.value);
      const [ma, mb] = [ra.memory, rb.memory] as ModelMemory[];
      expect(ma).toBeDefined();
      expect(mb).toBeDefined();
      expect(mb.phase.order).toBe(ma.phase.order + 1);
      // B's phase began only once A's had ended: B's session opening waited for the lock.
      expect(Date.parse(mb.phase.startedAt)).toBeGreaterThanOrEqual(Date.parse(ma.phase.endedAt));
      expect(ma.alongside).toBe(1); // B was downloading while A's phase ran
      expect(mb.alongside).toBe(0);
      for (const m of [ma, mb]) {
        expect(m.weightsBytes).toBe(statSync(MODEL).size); // inline weights: the graph file itself
        expect(Number.isFinite(m.rssGrowthBytes)).toBe(true);
        if (process.platform === 'linux') {
          expect(m.pssGrowthBytes).toBeDefined();
        }
      }
    } finally {
      await Promise.all(sessions.map((s) => s.release()));
    }
  }, 60_000);

  it('counts what the phase allocates, and a failed load frees the lock for the next', async () => {
    const held: Buffer[] = [];
    const failed = measureModelLoad(async () => {
      const s = await createSession(MODEL, { intraOpThreads: 1 });
      await s.release();
      held.push(Buffer.alloc(48 * 2 ** 20, 1)); // written: 48 MiB of private pages inside the phase
      throw new Error('bad graph');
    });
    await expect(failed).rejects.toThrow('bad graph');
    const next = await within(measureModelLoad(openAndRun), 20_000, 'the next load after a failed one');
    await next.value.release();
    expect(next.memory?.phase.order).toBeGreaterThan(0);

    const grown = await measureModelLoad(async () => {
      const s = await openAndRun();
      held.push(Buffer.alloc(64 * 2 ** 20, 2));
      return s;
    });
    await grown.value.release();
    expect(grown.memory?.rssGrowthBytes).toBeGreaterThan(32 * 2 ** 20);
    if (process.platform === 'linux') {
      expect(grown.memory?.pssGrowthBytes).toBeGreaterThan(32 * 2 ** 20);
    }
    expect(held).toHaveLength(2);
  }, 60_000);

  it('a load that opens no session is not measured; sessions opened outside a load never wait for the lock', async () => {
    expect((await measureModelLoad(async () => 7)).memory).toBeUndefined();
    const inPhase = deferred();
    const outsideOpened = deferred();
    const a = measureModelLoad(async () => {
      const s = await openAndRun();
      inPhase.resolve();
      await within(outsideOpened.promise, 20_000, 'a session opened outside any load during a phase');
      return s;
    });
    await inPhase.promise;
    const outside = await openAndRun();
    outsideOpened.resolve();
    await outside.release();
    const { value, memory } = await a;
    await value.release();
    expect(memory).toBeDefined();
  }, 60_000);

  it('tracks the async context only while a load runs (a promise hook on every request otherwise), and again for the next load', async () => {
    const seen: boolean[] = [];
    const first = await measureModelLoad(async () => {
      seen.push(tracksLoadContext());
      return openAndRun();
    });
    await first.value.release();
    seen.push(tracksLoadContext());
    const second = await measureModelLoad(async () => {
      seen.push(tracksLoadContext());
      return openAndRun();
    });
    await second.value.release();
    seen.push(tracksLoadContext());
    expect(seen).toEqual([true, false, true, false]);
    expect(second.memory?.phase.order).toBeGreaterThan(first.memory?.phase.order ?? Infinity);
  }, 60_000);
});
