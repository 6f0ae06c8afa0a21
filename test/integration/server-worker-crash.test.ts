import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Predictor } from '../../src/contract/predictor.js';
import { buildBertTokenClassifier } from '../../src/onnx/bert-token-classifier.js';
import { CONLL_LABELS, nerFixtureLabelTable, nerFixtureVocab } from '../../src/onnx/ner-fixture-vocab.js';
import { int64Tensor } from '../../src/runtime/ort.js';
import { argmaxPerToken } from '../../src/runtime/token-classification/run-token-logits.js';
import { createWorkerSession, MAX_WORKER_RESTARTS, type WorkerSession } from '../../src/runtime/worker/worker-session.js';
import type { ModelLoaders } from '../../src/server/model-loader.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { deferred, http, isvc } from './server-http.js';

/**
 * A served model whose ONNX session lives in a worker the test holds, so the test can kill that worker
 * while a request is in flight: the request must fail at once with the reason (never hang), the next
 * one restarts the worker, and past the restart bound the model answers 503 naming the crashes.
 * Tokenizing is a whole-word vocabulary lookup (the known-words fixture needs nothing more).
 */
const vocab = nerFixtureVocab(true);
const index = new Map(vocab.map((t, i) => [t, i]));
let session: WorkerSession;
let server: RunningServer;
/** Resolved once a run has been posted to the worker (the test kills the worker then). */
let posted = deferred();

async function classIds(texts: string[]): Promise<number[][]> {
  const out: number[][] = [];
  for (const text of texts) {
    const ids = [101, ...text.split(/\s+/).map((w) => index.get(w) ?? 100), 102];
    const shape = [1, ids.length];
    const running = session.run({
      input_ids: int64Tensor(BigInt64Array.from(ids, BigInt), shape),
      attention_mask: int64Tensor(new BigInt64Array(ids.length).fill(1n), shape),
      token_type_ids: int64Tensor(new BigInt64Array(ids.length), shape),
    });
    posted.resolve();
    out.push(argmaxPerToken((await running).logits.data as Float32Array, CONLL_LABELS.length));
  }
  return out;
}

beforeAll(async () => {
  const graph = buildBertTokenClassifier({ layers: 0, vocabSize: vocab.length, numLabels: CONLL_LABELS.length, labelTable: nerFixtureLabelTable(vocab) });
  session = await createWorkerSession(graph, { intraOpThreads: 1 });
  const predictor = { predictV1: async (r: { instances: string[] }) => ({ predictions: (await classIds(r.instances)).map((ids) => [ids]) }) } as unknown as Predictor;
  const loaders: ModelLoaders = { token_classification: async () => ({ task: 'token_classification', predictor, classIds, dispose: () => session.release() }) };
  server = await serve([isvc('ner')], { port: 0, loaders, maxWaitMs: 0 });
  await server.loaded();
});
afterAll(() => server?.close());

const predict = () => http(server.url, '/v1/models/ner:predict', { body: { instances: ['john is in paris'] } });

describe('serve: a crashed inference worker', () => {
  it('fails the request in flight with the reason, restarts on the next request, and stops restarting past the bound', async () => {
    expect((await predict()).json()).toEqual({ predictions: [[[0, 3, 0, 0, 7, 0]]] });

    posted = deferred();
    const inFlight = predict();
    await posted.promise;
    await session.kill('simulated crash');
    const failed = await inFlight;
    expect(failed.status).toBe(500);
    expect(failed.json()).toEqual({ error: expect.stringContaining('stopped (simulated crash)') });

    const again = await predict();
    expect(again.status, again.text).toBe(200);
    expect(session.restarts).toBe(1);

    for (let i = 1; i <= MAX_WORKER_RESTARTS; i++) {
      await session.kill(`crash ${i}`);
      const r = await predict();
      expect(r.status).toBe(i < MAX_WORKER_RESTARTS ? 200 : 503);
    }
    const dead = await predict();
    expect(dead.json()).toEqual({ error: expect.stringMatching(/crashed 4 times \(last: crash 3\); not restarting/) });
  }, 60_000);
});
