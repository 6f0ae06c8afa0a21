import { parentPort, workerData } from 'node:worker_threads';
import { isInferkitError } from '../../errors.js';
import { createLocalSession, tensorOf, type OrtFeeds } from '../ort.js';
import { transferable, type FromWorker, type ToWorker, type WireTensor, type WorkerInit } from './messages.js';

/**
 * Entry of a session worker thread: opens one ONNX Runtime session from `workerData` and answers
 * `run` messages one at a time (in order) until `release`. Inference blocks this thread only.
 */
async function main(port: NonNullable<typeof parentPort>, init: WorkerInit): Promise<void> {
  const post = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  let session;
  try {
    session = await createLocalSession(init.model, init.options);
  } catch (e) {
    post({ kind: 'load-failed', code: isInferkitError(e) ? e.code : 'model_load_failed', message: e instanceof Error ? e.message : String(e) });
    return;
  }
  const live = session;
  let lastEnd = 0;
  const busySince = (received: number): number => {
    const now = performance.now();
    const ms = now - Math.max(received, lastEnd);
    lastEnd = now;
    return ms;
  };
  post({ kind: 'ready', inputNames: [...live.inputNames], outputNames: [...live.outputNames], outputMetadata: live.outputMetadata.map((m) => ({ ...m })) });
  port.on('message', (message: ToWorker) => {
    if (message.kind === 'release') {
      // Deno's node:worker_threads (2.9) has no parentPort.close(); there process.exit ends this worker only.
      void live.release().finally(() => (typeof port.close === 'function' ? port.close() : process.exit(0)));
      return;
    }
    // The worker's time on this run (feeds in, ORT run, outputs out), for the model's compute time. Runs
    // queued behind a running one start when it ends: each is timed from then, so no time counts twice.
    const t0 = performance.now();
    const feeds: OrtFeeds = {};
    try {
      for (const [name, t] of Object.entries(message.feeds)) {
        feeds[name] = tensorOf(t.type, t.data, t.dims);
      }
    } catch (e) {
      // A feed ONNX Runtime cannot take as a tensor (its data does not fill its dims) fails its run, not the worker.
      post({ kind: 'run-failed', id: message.id, message: e instanceof Error ? e.message : String(e), busyMs: busySince(t0) });
      return;
    }
    live.run(feeds).then(
      (result) => {
        const raw: Record<string, WireTensor> = {};
        for (const [name, t] of Object.entries(result)) {
          raw[name] = { type: t.type, dims: [...t.dims], data: t.data as ArrayBufferView };
        }
        const { tensors, transfer } = transferable(raw);
        post({ kind: 'result', id: message.id, outputs: tensors, busyMs: busySince(t0) }, transfer);
      },
      (e: unknown) => post({ kind: 'run-failed', id: message.id, message: e instanceof Error ? e.message : String(e), busyMs: busySince(t0) }),
    );
  });
}

if (parentPort !== null && (workerData as { inferkitSessionWorker?: WorkerInit } | undefined)?.inferkitSessionWorker !== undefined) {
  void main(parentPort, (workerData as { inferkitSessionWorker: WorkerInit }).inferkitSessionWorker);
}
