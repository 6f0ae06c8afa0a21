import { describe, expect, it } from 'vitest';
import { releasedAfterEach, TINY_BERT as MODEL, tinyBertFeeds as feeds } from '../../../test/fixtures/tiny-bert-feeds.js';
import { createSession, int64Tensor } from '../ort.js';
import { MAX_WORKER_RESTARTS, WorkerSession } from './worker-session.js';

const LOAD_MS = 30_000;
const open = releasedAfterEach();

describe('createSession({ worker: true })', () => {
  it('answers exactly what the in-thread session answers, with the graph\'s names and metadata', async () => {
    const local = await createSession(MODEL);
    const remote = await createSession(MODEL, { worker: true });
    open.push(local, remote);
    expect(remote).toBeInstanceOf(WorkerSession);
    expect(remote.inputNames).toEqual(local.inputNames);
    expect(remote.outputNames).toEqual(local.outputNames);
    expect(remote.outputMetadata).toEqual(local.outputMetadata.map((m) => ({ ...m })));
    const a = await local.run(feeds(3, 7));
    const sent = feeds(3, 7);
    const b = await remote.run(sent);
    expect(b.logits.type).toBe('float32');
    expect(b.logits.dims).toEqual([3, 7, 9]);
    expect(Array.from(b.logits.data as Float32Array)).toEqual(Array.from(a.logits.data as Float32Array));
    // The feeds' buffers moved to the worker (transferred, not copied).
    expect((sent.input_ids.data as BigInt64Array).byteLength).toBe(0);
  }, LOAD_MS);

  it('a graph that cannot load rejects with model_load_failed and the reason', async () => {
    await expect(createSession(new Uint8Array([1, 2, 3, 4]), { worker: true })).rejects.toMatchObject({ code: 'model_load_failed', message: expect.stringContaining('could not load the ONNX model') });
  }, LOAD_MS);

  it('a run ORT refuses rejects with inference_failed and ORT\'s message; the worker keeps serving', async () => {
    const s = await createSession(MODEL, { worker: true });
    open.push(s);
    const bad = { ...feeds(1, 4), input_ids: int64Tensor(new BigInt64Array(3), [1, 3]) };
    await expect(s.run(bad)).rejects.toMatchObject({ code: 'inference_failed' });
    await expect(s.run(feeds(1, 4))).resolves.toHaveProperty('logits');
  }, LOAD_MS);

  it('feeds whose buffers went to an earlier run are refused, naming the feed, where they used to leave the run unanswered', async () => {
    const s = await createSession(MODEL, { worker: true });
    open.push(s);
    const shared = feeds(2, 5);
    const [first, second] = await Promise.allSettled([s.run(shared), s.run(shared)]);
    expect(first.status).toBe('fulfilled');
    expect(second).toMatchObject({ status: 'rejected', reason: { code: 'invalid_request', param: 'input_ids', message: expect.stringContaining('feed "input_ids" [2, 5] has no data') } });
    // A feed whose data does not fill its dims fails its run in the worker, which keeps serving.
    const short = { ...feeds(1, 4), attention_mask: { type: 'int64', dims: [1, 4], data: new BigInt64Array(2) } } as unknown as ReturnType<typeof feeds>;
    await expect(s.run(short)).rejects.toMatchObject({ code: 'inference_failed' });
    await expect(s.run(feeds(1, 4))).resolves.toHaveProperty('logits');
  }, LOAD_MS);

  it('a killed worker fails its pending runs at once with the reason, restarts on the next run, and gives up after the bound', async () => {
    const s = (await createSession(MODEL, { worker: true })) as WorkerSession;
    open.push(s);
    const failed = expect(s.run(feeds(64, 128))).rejects.toMatchObject({ code: 'inference_failed', message: expect.stringContaining('simulated crash') });
    await s.kill('simulated crash');
    await failed;
    await expect(s.run(feeds(1, 4))).resolves.toHaveProperty('logits');
    expect(s.restarts).toBe(1);
    for (let i = 1; i < MAX_WORKER_RESTARTS; i++) {
      await s.kill('again');
      await s.run(feeds(1, 4));
    }
    await s.kill('last straw');
    await expect(s.run(feeds(1, 4))).rejects.toMatchObject({ code: 'model_not_ready', message: expect.stringContaining('last straw') });
  }, 4 * LOAD_MS);

  it('release() stops the worker; later runs fail with model_not_ready', async () => {
    const s = await createSession(MODEL, { worker: true });
    await s.release();
    await s.release();
    await expect(s.run(feeds(1, 4))).rejects.toMatchObject({ code: 'model_not_ready' });
  }, LOAD_MS);
});
