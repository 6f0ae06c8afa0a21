import { fork, type ChildProcess } from 'node:child_process';
import { InferkitError } from '../../errors.js';
import type { SessionOptions } from '../ort-types.js';
import type { ExternalCopyAnswer, ExternalCopyInit } from './external-copy-worker.js';
import { childEntry, startWorker } from './worker-entry.js';

/** The environment variable that hands a child process ({@link copyInChild}) its `ExternalCopyInit`, as JSON. */
export const COPY_INIT_ENV = 'INFERKIT_COPY_INIT';

/**
 * Makes `model`'s external-data copy in `cacheDir` off this thread, in a child process or a worker thread that exits
 * when done ({@link copyOffThread}, external-copy-worker.ts): resolves with the copy's graph path, or undefined when
 * the graph needs none.
 */
export function externalCopyOffThread(model: string, cacheDir: string): Promise<string | undefined> {
  return copyOffThread({ model, cacheDir }, 'the external-data copy');
}

/**
 * Makes the packed copy of `graph` (a graph with external weights) in `cacheDir` off this thread, like
 * {@link externalCopyOffThread} (src/runtime/shared-weights/packed-graph.ts): resolves with the copy's graph path.
 */
export async function packedCopyOffThread(graph: string, level: NonNullable<SessionOptions['graphOptimizationLevel']>, cacheDir: string): Promise<string> {
  const made = await copyOffThread({ model: graph, cacheDir, packedLevel: level }, 'the packed copy');
  if (made === undefined) {
    throw new InferkitError('internal', `the process making the packed copy of ${graph} answered without a path`);
  }
  return made;
}

/**
 * Makes a copy in a child process ({@link copyInChild}) so that all it allocated leaves with it; where no child can be
 * started (it exits before answering, e.g. a runtime whose `fork` cannot run this script), in a worker thread, whose
 * freed memory this process's allocator may keep (~0.5× the weights per copy, BERT-shaped graph).
 */
async function copyOffThread(init: ExternalCopyInit, what: string): Promise<string | undefined> {
  const child = await copyInChild(init, what);
  return child.started ? child.made : copyInWorker(init, what);
}

/** {@link copyOffThread}'s child process: `started: false` when it ended without an answer (then nothing was decided). */
async function copyInChild(init: ExternalCopyInit, what: string): Promise<{ started: true; made: string | undefined } | { started: false }> {
  let entry: ReturnType<typeof childEntry>;
  try {
    entry = childEntry('external-copy-worker');
  } catch {
    return { started: false };
  }
  return new Promise((resolve, reject) => {
    let answered = false;
    let child: ChildProcess;
    try {
      child = fork(entry.modulePath, [], {
        execArgv: entry.execArgv,
        env: { ...process.env, [COPY_INIT_ENV]: JSON.stringify(init) },
        serialization: 'json',
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
    } catch {
      resolve({ started: false });
      return;
    }
    child.once('message', (answer: ExternalCopyAnswer) => {
      answered = true;
      settle(answer, init, what).then((made) => resolve({ started: true, made }), reject);
    });
    child.once('error', () => {
      if (!answered) {
        resolve({ started: false });
      }
    });
    child.once('exit', () => {
      if (!answered) {
        resolve({ started: false });
      }
    });
  });
}

function copyInWorker(init: ExternalCopyInit, what: string): Promise<string | undefined> {
  const worker = startWorker('external-copy-worker', { inferkitExternalCopy: init });
  return new Promise((resolve, reject) => {
    let answered = false;
    worker.once('message', (answer: ExternalCopyAnswer) => {
      answered = true;
      settle(answer, init, what).then(resolve, reject);
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

/** The copy's graph path from the child's or worker's answer, or the failure it reports. */
function settle(answer: ExternalCopyAnswer, init: ExternalCopyInit, what: string): Promise<string | undefined> {
  return answer.kind === 'done'
    ? Promise.resolve(answer.graph)
    : Promise.reject(new InferkitError('model_load_failed', `cannot make ${what} of ${init.model}: ${answer.message}`));
}
