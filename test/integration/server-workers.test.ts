import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTokenClassifierRepo } from '../../src/onnx/model-repo.js';
import { nerFixtureVocab } from '../../src/onnx/ner-fixture-vocab.js';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { http, isvc } from './server-http.js';

/**
 * Inference off the event loop: while a deliberately heavy generated graph runs a 32-text batch, the
 * server's own process keeps its timers and answers `/v2/health/live`. The same server with sessions
 * in the main thread shows the stall, so the measurement can see one. Delays are compared with the
 * request's own duration, with wide margins (the machine is shared): no absolute speed is asserted.
 */
const LOAD_MS = 120_000;
const WORDS = ['paris', 'john', 'is', 'in', 'berlin', 'and', 'maria', 'lives', 'near', 'london'];
// 8 texts: one ORT run (the classifier runs 8 texts per run), so in the main thread it is one long stall.
const texts = Array.from({ length: 8 }, (_, i) => Array.from({ length: 120 }, (_, k) => WORDS[(i + k) % WORDS.length]).join(' '));

let root: string;
let dir: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-workers-'));
  dir = join(root, 'heavy');
  // 12 layers × 256 hidden at 8 × 122 tokens: hundreds of milliseconds per run on these machines.
  await writeTokenClassifierRepo(dir, { vocab: nerFixtureVocab(true), model: { layers: 12, hidden: 256, heads: 4 } });
}, LOAD_MS);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Largest gap between 5 ms timer ticks, and /v2/health/live latencies, while `work` runs. */
async function watchEventLoop(server: RunningServer, work: () => Promise<unknown>): Promise<{ maxGapMs: number; liveMs: number[]; workMs: number }> {
  let last = performance.now();
  let maxGapMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
  }, 5);
  const liveMs: number[] = [];
  let done = false;
  const probe = (async () => {
    for (let i = 0; i < 200 && !done; i++) {
      const t = performance.now();
      const r = await http(server.url, '/v2/health/live');
      expect(r.status).toBe(200);
      liveMs.push(performance.now() - t);
    }
  })();
  const t0 = performance.now();
  try {
    await work();
  } finally {
    done = true;
    clearInterval(timer);
  }
  const workMs = performance.now() - t0;
  await probe;
  return { maxGapMs, liveMs, workMs };
}

async function heavyRun(workerThreads: boolean) {
  const server = await serve([isvc('heavy', { args: [`--model_id=${dir}`, '--task=token_classification'] })], {
    port: 0,
    loaders: defaultLoaders(),
    inference: { threads: 1, workerThreads },
  });
  try {
    const [state] = await server.loaded();
    expect(state.ready, state.reason).toBe(true);
    expect(state.inference).toMatchObject({ threads: 1, worker: workerThreads });
    const warm = await http(server.url, '/v1/models/heavy:predict', { body: { instances: texts.slice(0, 2) } });
    expect(warm.status, warm.text).toBe(200);
    return await watchEventLoop(server, async () => {
      const r = await http(server.url, '/v1/models/heavy:predict', { body: { instances: texts } });
      expect(r.status, r.text).toBe(200);
    });
  } finally {
    await server.close();
  }
}

describe('serve: ONNX sessions in worker threads', () => {
  it('keeps the event loop free while a heavy batch runs (timers and /v2/health/live keep going); in-thread sessions stall it', async () => {
    const inWorker = await heavyRun(true);
    const inThread = await heavyRun(false);
    // In the main thread, the event loop stops for about the whole ORT run.
    expect(inThread.maxGapMs).toBeGreaterThan(inThread.workMs / 3);
    // In a worker, timers keep ticking: the longest gap is a small part of the request's time.
    expect(inWorker.liveMs.length).toBeGreaterThan(3);
    expect(inWorker.maxGapMs).toBeLessThan(Math.max(60, inWorker.workMs / 4));
    expect(inWorker.maxGapMs).toBeLessThan(inThread.maxGapMs / 2);
  }, 3 * LOAD_MS);

  it('/metrics reports the seconds its worker threads spent on runs (inferkit_model_compute_seconds_total); in-thread sessions report none', async () => {
    const compute = (metrics: string, model: string): number | undefined => {
      const m = new RegExp(`^inferkit_model_compute_seconds_total\\{model="${model}"\\} (\\S+)$`, 'm').exec(metrics);
      return m ? Number(m[1]) : undefined;
    };
    const manifests = [
      isvc('worker', { args: [`--model_id=${dir}`, '--task=token_classification'] }),
      isvc('thread', { args: [`--model_id=${dir}`, '--task=token_classification'] }),
    ];
    const server = await serve([manifests[0]], { port: 0, loaders: defaultLoaders(), inference: { threads: 1, workerThreads: true } });
    const inThread = await serve([manifests[1]], { port: 0, loaders: defaultLoaders(), inference: { threads: 1, workerThreads: false } });
    try {
      await Promise.all([server.loaded(), inThread.loaded()]);
      const before = compute((await http(server.url, '/metrics')).text, 'worker') ?? 0;
      const t0 = performance.now();
      const r = await http(server.url, '/v1/models/worker:predict', { body: { instances: texts } });
      const requestMs = performance.now() - t0;
      expect(r.status, r.text).toBe(200);
      const after = compute((await http(server.url, '/metrics')).text, 'worker') ?? 0;
      // One replica with one thread: the heavy run is most of the request, and never more than it.
      const ms = (after - before) * 1000;
      expect(ms).toBeGreaterThan(requestMs / 2);
      expect(ms).toBeLessThanOrEqual(requestMs);
      // A scrape with no run in between adds nothing.
      expect(compute((await http(server.url, '/metrics')).text, 'worker')).toBe(after);
      expect((await http(inThread.url, '/v1/models/thread:predict', { body: { instances: texts.slice(0, 2) } })).status).toBe(200);
      expect(compute((await http(inThread.url, '/metrics')).text, 'thread')).toBeUndefined();
    } finally {
      await Promise.all([server.close(), inThread.close()]);
    }
  }, 2 * LOAD_MS);
});
