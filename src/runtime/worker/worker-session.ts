import type { Worker } from 'node:worker_threads';
import { InferkitError, type InferkitErrorCode } from '../../errors.js';
import type { OrtFeeds, OrtOutput, OrtSession, OrtValueMetadata, SessionOptions } from '../ort-types.js';
import { transferable, type FromWorker, type ToWorker, type WireTensor } from './messages.js';
import { startWorker } from './worker-entry.js';
import { shareableModel } from '../shared-weights/external-graph.js';

/** Restarts after crashes before a worker session gives up (its runs then fail with `model_not_ready`). */
export const MAX_WORKER_RESTARTS = 3;
/** How long `release()` waits for the worker to free its session before terminating it. */
const RELEASE_GRACE_MS = 5_000;
/** How long `kill()` waits for the abandoned worker to finish its run and exit. */
const KILL_WAIT_MS = 30_000;

interface PendingRun {
  resolve: (outputs: Record<string, OrtOutput>) => void;
  reject: (e: unknown) => void;
}

type Graph = Extract<FromWorker, { kind: 'ready' }>;

/**
 * An ONNX Runtime session living in a worker thread, behind the {@link OrtSession} interface. Runs
 * are posted to the worker (feeds' buffers transferred) and answered in order; the main thread's
 * event loop stays free while the graph runs. A worker that crashes or is killed fails its pending
 * runs with `inference_failed` naming the reason; the next run starts a fresh worker, at most
 * {@link MAX_WORKER_RESTARTS} times.
 */
export class WorkerSession implements OrtSession {
  inputNames: readonly string[] = [];
  outputNames: readonly string[] = [];
  outputMetadata: readonly OrtValueMetadata[] = [];
  readonly #model: string | Uint8Array;
  readonly #options: Omit<SessionOptions, 'worker'>;
  readonly #label: string;
  readonly #pending = new Map<number, PendingRun>();
  #worker: Worker | undefined;
  #starting: Promise<Worker> | undefined;
  #nextId = 0;
  #restarts = 0;
  #busyMs = 0;
  #lastCrash: string | undefined;
  #released = false;

  constructor(model: string | Uint8Array, options: SessionOptions) {
    this.#model = model;
    const { worker: _worker, ...rest } = options;
    this.#options = rest;
    this.#label = typeof model === 'string' ? model : `an in-memory model (${model.byteLength} bytes)`;
  }

  /** 1 when no run is queued or running in the worker, else 0. */
  get idleRuns(): number {
    return this.#pending.size === 0 ? 1 : 0;
  }

  /** Milliseconds the worker spent on runs so far (building feeds, running, sending outputs). */
  get busyMs(): number {
    return this.#busyMs;
  }

  /** Runs waiting in the worker behind the one it runs. */
  get queuedRuns(): number {
    return Math.max(0, this.#pending.size - 1);
  }

  /** Restarts so far (after crashes or `kill()`). */
  get restarts(): number {
    return this.#restarts;
  }

  /** Starts the worker and opens the session; rejects with the load error (no retry). */
  async start(): Promise<void> {
    await this.#ensureWorker();
  }

  async run(feeds: OrtFeeds): Promise<Record<string, OrtOutput>> {
    // Posted synchronously when the worker is up, so a crash right after run() still fails this run.
    const worker = this.#worker ?? (await this.#ensureWorker());
    if (worker !== this.#worker) {
      throw new InferkitError('inference_failed', `the ONNX Runtime worker of ${this.#label} stopped (${this.#lastCrash ?? 'released'}) before the run started`);
    }
    const wire: Record<string, WireTensor> = {};
    for (const [name, t] of Object.entries(feeds)) {
      const data = t.data as ArrayBufferView;
      // A buffer handed to another run is detached (empty): posted, it would be lost on the way and the run never answered.
      if (data.byteLength === 0 && t.dims.every((d) => d > 0)) {
        throw new InferkitError('invalid_request', `feed "${name}" [${t.dims.join(', ')}] has no data: its buffer went to the worker of an earlier run (feeds are transferred, not copied); give each run its own tensors`, { param: name });
      }
      wire[name] = { type: t.type, dims: [...t.dims], data };
    }
    const { tensors, transfer } = transferable(wire);
    const id = ++this.#nextId;
    return new Promise((resolve, reject) => {
      const message: ToWorker = { kind: 'run', id, feeds: tensors };
      try {
        worker.postMessage(message, transfer);
      } catch (cause) {
        reject(new InferkitError('inference_failed', `could not send the feeds to the ONNX Runtime worker: ${(cause as Error).message}`, { cause }));
        return;
      }
      this.#pending.set(id, { resolve, reject });
      worker.ref();
    });
  }

  /**
   * Abandons the worker as a crash would: pending runs fail at once with `inference_failed`, the next
   * run starts a new worker (counted against {@link MAX_WORKER_RESTARTS}); the old one exits after the
   * run it is in (see `#retire`). For a run that must be abandoned.
   */
  async kill(reason = 'killed'): Promise<void> {
    const worker = this.#worker;
    if (worker !== undefined) {
      this.#crashed(worker, reason);
      await this.#retire(worker, KILL_WAIT_MS);
    }
  }

  /**
   * Asks a worker to exit once its current run is over and waits for that, at most `waitMs`. Never
   * `terminate()`: stopping a thread while it is inside onnxruntime-node's synchronous run aborts the
   * whole process (the binding's error path fails with a fatal napi error). A worker still busy after
   * `waitMs` is left to finish that run and exit on its own (unref'd, it keeps no process alive).
   */
  async #retire(worker: Worker, waitMs: number): Promise<void> {
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    const release: ToWorker = { kind: 'release' };
    worker.postMessage(release);
    worker.unref();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
  }

  async release(): Promise<void> {
    if (this.#released) {
      return;
    }
    this.#released = true;
    const worker = this.#worker ?? (await this.#starting?.catch(() => undefined));
    this.#worker = undefined;
    this.#failPending(new InferkitError('model_not_ready', `the session of ${this.#label} was released`));
    if (worker === undefined) {
      return;
    }
    await this.#retire(worker, RELEASE_GRACE_MS);
  }

  #ensureWorker(): Promise<Worker> {
    if (this.#released) {
      return Promise.reject(new InferkitError('model_not_ready', `the session of ${this.#label} was released`));
    }
    if (this.#worker !== undefined) {
      return Promise.resolve(this.#worker);
    }
    if (this.#starting === undefined) {
      if (this.#lastCrash !== undefined) {
        if (this.#restarts >= MAX_WORKER_RESTARTS) {
          return Promise.reject(
            new InferkitError('model_not_ready', `the ONNX Runtime worker of ${this.#label} crashed ${this.#restarts + 1} times (last: ${this.#lastCrash}); not restarting it — reload the model`),
          );
        }
        this.#restarts++;
      }
      this.#starting = this.#spawn().finally(() => (this.#starting = undefined));
    }
    return this.#starting;
  }

  #spawn(): Promise<Worker> {
    const worker = startWorker('session-worker', { inferkitSessionWorker: { model: this.#model, options: this.#options } });
    return new Promise<Worker>((resolve, reject) => {
      let ready = false;
      worker.on('message', (message: FromWorker) => {
        if (message.kind === 'ready') {
          ready = true;
          this.#adopt(message);
          this.#worker = worker;
          worker.unref();
          resolve(worker);
        } else if (message.kind === 'load-failed') {
          void worker.terminate();
          reject(new InferkitError(message.code as InferkitErrorCode, message.message));
        } else {
          this.#settle(worker, message);
        }
      });
      worker.on('error', (e) => {
        if (!ready) {
          reject(new InferkitError('model_load_failed', `the ONNX Runtime worker for ${this.#label} failed to start: ${e.message}`, { cause: e }));
        }
        this.#crashed(worker, e.message);
      });
      worker.on('exit', (code) => {
        if (!ready) {
          reject(new InferkitError('model_load_failed', `the ONNX Runtime worker for ${this.#label} exited with code ${code} before its session opened`));
        }
        this.#crashed(worker, `exited with code ${code}`);
      });
    });
  }

  #adopt(graph: Graph): void {
    this.inputNames = graph.inputNames;
    this.outputNames = graph.outputNames;
    this.outputMetadata = graph.outputMetadata;
  }

  #settle(worker: Worker, message: Extract<FromWorker, { kind: 'result' | 'run-failed' }>): void {
    const run = this.#pending.get(message.id);
    this.#pending.delete(message.id);
    this.#busyMs += message.busyMs;
    if (this.#pending.size === 0) {
      worker.unref();
    }
    if (message.kind === 'result') {
      run?.resolve(message.outputs);
    } else {
      run?.reject(new InferkitError('inference_failed', message.message));
    }
  }

  /** A worker that stopped unasked: its runs fail; the next run restarts it (bounded). */
  #crashed(worker: Worker, reason: string): void {
    if (this.#worker !== worker || this.#released) {
      return;
    }
    this.#worker = undefined;
    this.#lastCrash = reason;
    const left = MAX_WORKER_RESTARTS - this.#restarts;
    this.#failPending(
      new InferkitError('inference_failed', `the ONNX Runtime worker of ${this.#label} stopped (${reason}); the run failed and ${left > 0 ? 'the next run restarts the worker' : 'the worker will not be restarted'}`),
    );
  }

  #failPending(error: InferkitError): void {
    const runs = [...this.#pending.values()];
    this.#pending.clear();
    for (const run of runs) {
      run.reject(error);
    }
  }
}

/**
 * Opens `model` in a new worker thread (see {@link WorkerSession}); rejects with the load error. A graph file with
 * inline weights is opened from its external-data copy (made once: src/runtime/shared-weights/), so the worker
 * keeps one copy of the weights, not the parsed inline ones beside the packed ones.
 */
export async function createWorkerSession(model: string | Uint8Array, options: SessionOptions = {}): Promise<WorkerSession> {
  const session = new WorkerSession(await shareableModel(model, options.cacheDir), options);
  await session.start();
  return session;
}
