import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTokenClassifier } from '../../src/runtime/token-classification/load-token-classifier.js';
import { servedTokenClassifier } from '../../src/server/default-loaders.js';
import type { ModelLoaders, TokenClassificationModel } from '../../src/server/model-loader.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { deferred, http, isvc, nerFixtureDir, until, v1, v2 } from './server-http.js';

const WORDS = ['paris', 'is', 'where', 'wolfgang', 'lives', 'with', 'the', 'united', 'nations', 'in', 'berlin', 'today'];
/** Texts of different lengths, so merged batches pad and V2's T differs per request. */
const text = (i: number) => Array.from({ length: 1 + ((i * 7) % 11) }, (_, j) => WORDS[(i + j * 5) % WORDS.length]).join(' ');
const requestTexts = (i: number) => Array.from({ length: 1 + (i % 3) }, (_, j) => text(i * 3 + j));

let dir: string;
const calls: number[] = [];
/** Loaders of the fixture model whose every model call runs `before(texts)` first. */
function fixtureLoaders(before: (texts: string[]) => void | Promise<void>): ModelLoaders {
  return {
    token_classification: async ({ config }) => {
      const served = servedTokenClassifier(await loadTokenClassifier(dir, { modelName: config.modelName }));
      const classIds = served.classIds as NonNullable<TokenClassificationModel['classIds']>;
      return {
        ...served,
        classIds: async (texts, o) => {
          await before(texts);
          return classIds(texts, o);
        },
      };
    },
  };
}
/** Loader that records how many texts each model call gets. */
const counting = fixtureLoaders((texts) => {
  calls.push(texts.length);
});

let batched: RunningServer;
let unbatched: RunningServer;
beforeAll(async () => {
  dir = await nerFixtureDir();
  const manifests = [isvc('bert'), isvc('bert-v2', { modelName: 'bert2', v2: true })];
  // waitWhenIdle: merging must not depend on how fast this machine answers the first request.
  batched = await serve(manifests, { loaders: counting, port: 0, maxBatchSize: 32, maxWaitMs: 20, waitWhenIdle: true });
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
  it('32 concurrent clients get exactly the unbatched replies while calls are merged', async () => {
    calls.length = 0;
    const alone = await burst(unbatched, 32);
    expect(calls.length).toBe(0); // unbatched answers through the predictor itself
    const merged = await burst(batched, 32);
    expect(merged).toEqual(alone);
    expect(merged.every(([s1, , s2]) => s1 === 200 && s2 === 200)).toBe(true);
    const texts = Array.from({ length: 32 }, (_, i) => requestTexts(i).length).reduce((a, b) => a + b, 0) * 2;
    expect(calls.reduce((a, b) => a + b, 0)).toBe(texts);
    expect(calls.length).toBeLessThan(64); // fewer model calls than requests
    expect(Math.max(...calls)).toBeGreaterThan(3); // some call merged several requests
    expect(Math.max(...calls)).toBeLessThanOrEqual(32);
    const metrics = (await http(batched.url, '/metrics')).text;
    expect(metrics).toMatch(/inferkit_batch_requests_bucket\{le="1",model="bert"\} \d+/);
  });

  it('a request larger than maxBatchSize runs alone and whole', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => text(i));
    const a = await http(batched.url, '/v1/models/bert:predict', { body: v1(...texts) });
    const b = await http(unbatched.url, '/v1/models/bert:predict', { body: v1(...texts) });
    expect(a.status).toBe(200);
    expect(a.json()).toEqual(b.json());
  });
});

describe('serve: a classifier with a run queue takes requests as they come', () => {
  it('requests that arrive while a call runs go out at once as their own call (the run queue packs the runs), and all are answered', async () => {
    const seen: number[] = [];
    const held = deferred();
    const loaders: ModelLoaders = {
      token_classification: async ({ config }) => {
        const served = servedTokenClassifier(await loadTokenClassifier(dir, { modelName: config.modelName }));
        expect(served.sharesRunQueue).toBe(true);
        const classIds = served.classIds as NonNullable<TokenClassificationModel['classIds']>;
        return {
          ...served,
          classIds: async (texts, o) => {
            seen.push(texts.length);
            if (seen.length === 1) {
              await held.promise;
            }
            return classIds(texts, o);
          },
        };
      },
    };
    const server = await serve([isvc('bert')], { loaders, port: 0, inference: { threads: 1 } });
    try {
      await server.loaded();
      const post = (t: string) => http(server.url, '/v1/models/bert:predict', { body: v1(t) });
      const first = post('paris');
      await until(() => seen.length === 1);
      // The first call is still running: the next requests do not wait for it.
      const two = [post('berlin is big'), post('john')];
      await until(() => seen.reduce((a, b) => a + b, 0) === 3);
      held.resolve();
      const answers = await Promise.all([first, ...two]);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
      const alone = await post('berlin is big');
      expect(answers[1].json()).toEqual(alone.json());
    } finally {
      held.resolve();
      await server.close();
    }
  });
});
