import { parentPort, workerData } from 'node:worker_threads';
import { externalizedGraph } from '../shared-weights/external-graph.js';

/** What the main thread hands the worker: the graph file and the model cache. */
export interface ExternalCopyInit {
  model: string;
  cacheDir: string;
}

/** The worker's one answer: the copy's graph path (or none), or why it could not be made. */
export type ExternalCopyAnswer = { kind: 'done'; graph: string | undefined } | { kind: 'failed'; message: string };

/**
 * Entry of a short-lived worker that makes a graph's external-data copy (src/runtime/shared-weights/) and
 * exits: the whole-file buffers the split reads and writes die with the worker's heap, instead of waiting
 * in a served process's heap for its next full garbage collection (a 0.4 GiB graph left ~0.9 GiB of RSS).
 */
async function main(port: NonNullable<typeof parentPort>, init: ExternalCopyInit): Promise<void> {
  let answer: ExternalCopyAnswer;
  try {
    answer = { kind: 'done', graph: await externalizedGraph(init.model, init.cacheDir) };
  } catch (e) {
    answer = { kind: 'failed', message: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(answer);
}

if (parentPort !== null && (workerData as { inferkitExternalCopy?: ExternalCopyInit } | undefined)?.inferkitExternalCopy !== undefined) {
  void main(parentPort, (workerData as { inferkitExternalCopy: ExternalCopyInit }).inferkitExternalCopy);
}
