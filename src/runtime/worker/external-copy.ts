import { InferkitError } from '../../errors.js';
import type { SessionOptions } from '../ort-types.js';
import type { ExternalCopyAnswer, ExternalCopyInit } from './external-copy-worker.js';
import { startWorker } from './worker-entry.js';

/**
 * Makes `model`'s external-data copy in `cacheDir` in a worker thread that exits when done (see
 * external-copy-worker.ts): resolves with the copy's graph path, or undefined when the graph needs none.
 */
export function externalCopyInWorker(model: string, cacheDir: string): Promise<string | undefined> {
  return copyInWorker({ model, cacheDir }, 'the external-data copy');
}

/**
 * Makes the packed copy of `graph` (a graph with external weights) in `cacheDir` in a worker thread that exits when
 * done (src/runtime/shared-weights/packed-graph.ts): resolves with the copy's graph path.
 */
export async function packedCopyInWorker(graph: string, level: NonNullable<SessionOptions['graphOptimizationLevel']>, cacheDir: string): Promise<string> {
  const made = await copyInWorker({ model: graph, cacheDir, packedLevel: level }, 'the packed copy');
  if (made === undefined) {
    throw new InferkitError('internal', `the worker making the packed copy of ${graph} answered without a path`);
  }
  return made;
}

function copyInWorker(init: ExternalCopyInit, what: string): Promise<string | undefined> {
  const worker = startWorker('external-copy-worker', { inferkitExternalCopy: init });
  return new Promise((resolve, reject) => {
    let answered = false;
    worker.once('message', (answer: ExternalCopyAnswer) => {
      answered = true;
      if (answer.kind === 'done') {
        resolve(answer.graph);
      } else {
        reject(new InferkitError('model_load_failed', `cannot make ${what} of ${init.model}: ${answer.message}`));
      }
      void worker.terminate();
    });
    worker.once('error', (e) => reject(new InferkitError('model_load_failed', `the worker making ${what} of ${init.model} failed: ${e.message}`, { cause: e })));
    worker.once('exit', (code) => {
      if (!answered) {
        reject(new InferkitError('model_load_failed', `the worker making ${what} of ${init.model} exited (code ${code}) before answering`));
      }
    });
  });
}
