import { InferkitError } from '../../errors.js';
import type { ExternalCopyAnswer } from './external-copy-worker.js';
import { startWorker } from './worker-entry.js';

/**
 * Makes `model`'s external-data copy in `cacheDir` in a worker thread that exits when done (see
 * external-copy-worker.ts): resolves with the copy's graph path, or undefined when the graph needs none.
 */
export function externalCopyInWorker(model: string, cacheDir: string): Promise<string | undefined> {
  const worker = startWorker('external-copy-worker', { inferkitExternalCopy: { model, cacheDir } });
  return new Promise((resolve, reject) => {
    let answered = false;
    worker.once('message', (answer: ExternalCopyAnswer) => {
      answered = true;
      if (answer.kind === 'done') {
        resolve(answer.graph);
      } else {
        reject(new InferkitError('model_load_failed', `cannot make the external-data copy of ${model}: ${answer.message}`));
      }
      void worker.terminate();
    });
    worker.once('error', (e) => reject(new InferkitError('model_load_failed', `the worker copying ${model}'s weights failed: ${e.message}`, { cause: e })));
    worker.once('exit', (code) => {
      if (!answered) {
        reject(new InferkitError('model_load_failed', `the worker copying ${model}'s weights exited (code ${code}) before answering`));
      }
    });
  });
}
