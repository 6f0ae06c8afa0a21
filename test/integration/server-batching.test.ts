import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTokenClassifier } from '../../src/runtime/token-classification/load-token-classifier.js';
import { servedTokenClassifier } from '../../src/server/default-loaders.js';
import type { ModelLoaders, TokenClassificationModel } from '../../src/server/model-loader.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { deferred, heldTokenLoaders, http, isvc, nerFixtureDir, until, v1, v2 } from './server-http.js';

const WORDS = ['paris', 'is', 'where', 'wolfgang', 'lives', 'with', 'the', 'united', 'nations', 'in', 'berlin', 'today'];
/** Texts of different lengths, so merged batches pad and V2's T differs per request. */
const text = (i: number) => Array.from({ length: 1 + ((i * 7) % 11) }, (_, j) => WORDS[(i + j * 5) % WORDS.length]).join(' ');
const requestTexts = (i: number) => Array.from({ length: 1 + (i % 3) }, (_, j) => text(i * 3 + j));

let dir: string;
const calls: number[] = [];
/** Loaders of the fixture model whose every run records its texts and runs `before()` first. */
function fixtureLoaders(before: () => void | Promise<void>): ModelLoaders {
  return {
    token_classification: async ({ config }) => {
      const served = servedTokenClassifier(await loadTokenClassifier(dir, { modelName: config.modelName }));
      const runClassIds = served.runClassIds as NonNullable<TokenClassificationModel['runClassIds']>;
      return {
        ...served,
        runClassIds: async (sequences) => {
          calls.push(sequences.length);
          await before();
          return runClassIds(sequences);
        },
      };
    },
  };
}
/** Runs wait while `hold.held`. */
const hold = { held: false, open: deferred() };
const counting = fixtureLoaders(async () => {
  while (hold.held) {
    await hold.open.promise;
  }
});

let batched: RunningServer;
let unbatched: RunningServer;
beforeAll(async () => {
  dir = await nerFixtureDir();
  const manifests = [isvc('bert'), isvc('bert-v2', { modelName: 'bert2', v2: true })];
  batched = await serve(manifests, { loaders: counting, port: 0, maxBatchSize: 32, inference: { threads: 1, workerThreads: false } });
  unbatched = await serve(manifests, { loaders: counting, port: 0, maxWaitMs: 0 });
  await Promise.all([batched.loaded(), unbatched.loaded()]);
});
afterAll(async () => {
  await batched?.close();
  await unbatched?.close();
});

async function burst(server: RunningServer, clients: number) {
  return Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      const texts = requestTexts(i);
      const a = await http(server.url, '/v1/models/bert:predict', { body: v1(...texts) });
      const b = await http(server.url, '/v2/models/bert2/infer', { body: { id: `r${i}`, ...v2(...texts) } });
      return [a.status, a.json(), b.status, b.json()];
    }),
  );
}

describe('serve: dynamic batching', () => {
  it('32 concurrent clients get exactly the unbatched replies while their texts share full runs', async () => {
    calls.length = 0;
    const alone = await burst(unbatched, 32);
    expect(calls.length).toBe(0); // unbatched answers through the predictor itself
    // The model is busy (held) while the 32 V1 requests queue: the runs that follow are full.
    hold.held = true;
    const merging = burst(batched, 32);
    await expect
      .poll(async () => (await http(batched.url, '/metrics')).text)
      .toMatch(/inferkit_requests_in_flight\{route="\/v1\/models\/:name"\} 32\b/);
    hold.held = false;
    hold.open.resolve();
    hold.open = deferred();
    const merged = await merging;
    expect(merged).toEqual(alone);
    expect(merged.every(([s1, , s2]) => s1 === 200 && s2 === 200)).toBe(true);
    const texts = Array.from({ length: 32 }, (_, i) => requestTexts(i).length).reduce((a, b) => a + b, 0) * 2;
    expect(calls.reduce((a, b) => a + b, 0)).toBe(texts);
    expect(calls.length).toBeLessThan(64); // fewer runs than requests
    expect(calls.filter((n) => n === 8).length).toBeGreaterThanOrEqual(6); // the queued V1 texts (64) went in runs of 8
    expect(Math.max(...calls)).toBe(8); // the classifier's run size
    const metrics = (await http(batched.url, '/metrics')).text;
    expect(metrics).toMatch(/inferkit_batch_requests_bucket\{le="1",model="bert"\} \d+/);
  });

  it('a request of more texts than a run is cut into runs and answered whole, as unbatched', async () => {
    calls.length = 0;
    const texts = Array.from({ length: 40 }, (_, i) => text(i));
    const a = await http(batched.url, '/v1/models/bert:predict', { body: v1(...texts) });
    const b = await http(unbatched.url, '/v1/models/bert:predict', { body: v1(...texts) });
    expect(a.status).toBe(200);
    expect(a.json()).toEqual(b.json());
    expect(calls.reduce((x, y) => x + y, 0)).toBe(40);
    expect(Math.max(...calls)).toBeLessThanOrEqual(8);
  });
});

describe('serve: one queue of texts per model, replicas take their next run from it', () => {
  it('a lone request on an idle model starts at once; with every replica busy and one run ready, texts wait and the first replica to free takes a full run', async () => {
    const held = heldTokenLoaders(dir);
    const server = await serve([isvc('bert')], { loaders: held.loaders, port: 0, inference: { threads: 2, replicas: 2 } });
    try {
      await server.loaded();
      const post = (t: string) => http(server.url, '/v1/models/bert:predict', { body: v1(t) });
      held.gate.held = true;
      const first = post('paris');
      await until(() => held.runs.length === 1); // no wait for more texts
      const second = post('berlin');
      await until(() => held.runs.length === 2); // the second replica
      const third = post('maria');
      await until(() => held.runs.length === 3); // one run more than replicas: it waits ready at the pool
      const queued = Array.from({ length: 10 }, (_, i) => post(text(i)));
      await expect.poll(async () => (await http(server.url, '/metrics')).text).toMatch(/inferkit_requests_in_flight\{route="\/v1\/models\/:name"\} 13\b/);
      expect(held.runs).toEqual([1, 1, 1]); // the 10 texts wait in the queue
      held.release();
      const answers = await Promise.all([first, second, third, ...queued]);
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
      expect(held.runs).toEqual([1, 1, 1, 8, 2]);
    } finally {
      held.release();
      await server.close();
    }
  });
});

describe('serve: graceful shutdown', () => {
  it('close() lets in-flight requests finish, then refuses new connections', async () => {
    const gate = deferred();
    const entered = deferred();
    const slow = fixtureLoaders(async () => {
      entered.resolve();
      await gate.promise;
    });
    const server = await serve([isvc('bert')], { loaders: slow, port: 0, maxWaitMs: 1 });
    await server.loaded();
    const inFlight = http(server.url, '/v1/models/bert:predict', { body: v1('paris') });
    await entered.promise;
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);
    await expect(http(server.url, '/v2/health/live')).rejects.toThrow(/ECONNREFUSED/);
    gate.resolve();
    const r = await inFlight;
    expect(r.status).toBe(200);
    expect(r.json()).toEqual({ predictions: [[expect.any(Array)]] });
    await closing;
    expect(closed).toBe(true);
  });
});
