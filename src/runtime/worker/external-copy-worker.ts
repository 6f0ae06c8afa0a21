import { parentPort, workerData } from 'node:worker_threads';
import { externalizedGraph } from '../shared-weights/external-graph.js';
import { makePackedCopy } from '../shared-weights/packed-graph.js';
import type { SessionOptions } from '../ort-types.js';
import { COPY_INIT_ENV } from './external-copy.js';

/** What the main thread hands the worker: the graph file, the model cache, and which copy to make. */
export interface ExternalCopyInit {
  model: string;
  cacheDir: string;
  /** Make the packed copy at this optimization level (src/runtime/shared-weights/packed-graph.ts); absent: the external-data copy. */
  packedLevel?: NonNullable<SessionOptions['graphOptimizationLevel']>;
}

/** The worker's one answer: the copy's graph path (or none), or why it could not be made. */
export type ExternalCopyAnswer = { kind: 'done'; graph: string | undefined } | { kind: 'failed'; message: string };

/**
 * Entry of a short-lived child process (or, where none can be started, worker thread) that makes a graph's copy in
 * the model cache (src/runtime/shared-weights/) and exits:
 * the external-data copy's whole-file buffers, or the packing session's parsed graph and private packed weights, die
 * with it, instead of waiting in a served process's heap for its next full garbage collection (a 0.4 GiB
 * graph left ~0.9 GiB of RSS), and ONNX Runtime's synchronous load and packing keep off the event loop.
 */
async function main(port: { postMessage(answer: ExternalCopyAnswer): void }, init: ExternalCopyInit): Promise<void> {
  let answer: ExternalCopyAnswer;
  try {
    const graph = init.packedLevel !== undefined ? await makePackedCopy(init.model, init.packedLevel, init.cacheDir) : await externalizedGraph(init.model, init.cacheDir);
    answer = { kind: 'done', graph };
  } catch (e) {
    answer = { kind: 'failed', message: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(answer);
}

if (parentPort !== null && (workerData as { inferkitExternalCopy?: ExternalCopyInit } | undefined)?.inferkitExternalCopy !== undefined) {
  void main(parentPort, (workerData as { inferkitExternalCopy: ExternalCopyInit }).inferkitExternalCopy);
} else if (parentPort === null && typeof process.send === 'function' && process.env[COPY_INIT_ENV] !== undefined) {
  // A child process: the answer goes back over its IPC channel, then the process exits (and its memory with it).
  const send = process.send.bind(process);
  void main({ postMessage: (answer) => void send(answer, () => process.exit(0)) }, JSON.parse(process.env[COPY_INIT_ENV]) as ExternalCopyInit);
}
