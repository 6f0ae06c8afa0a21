import { Worker } from 'node:worker_threads';
import type { Frequency } from '../../contract/enums.js';
import { InferkitError, type InferkitErrorCode } from '../../errors.js';
import { createBaseline, type BaselineSpec } from '../forecast/baseline-spec.js';
import type { ForecastModel, ModelForecast, PredictOptions } from '../forecast/forecast-model.js';
import { evenSizes, slicesOf } from '../even-sizes.js';
import { buffersOf, type BaselineTask, type FromBaselineWorker } from './baseline-messages.js';
import { workerEntry } from './worker-entry.js';

/** Replacement workers a {@link WorkerBaseline} starts after crashes before it gives up. */
export const MAX_BASELINE_WORKER_RESTARTS = 3;
/** Most series of one task: a cancelled call stops after at most this many series per worker. */
const MAX_CHUNK = 16;
/** Fewest series of one task when a call has more: fewer messages for cheap models (see `predict`). */
const MIN_CHUNK = 4;

/** Options of {@link startWorkerBaseline}. */
export interface WorkerBaselineOptions {
  /** Worker threads (the cores the baseline may use). @default 1 */
  workers?: number;
}

interface Job {
  task: Omit<BaselineTask, 'id' | 'kind'>;
  signal: AbortSignal | undefined;
  resolve: (out: ModelForecast) => void;
  reject: (e: unknown) => void;
}

interface Slot {
  worker: Worker | undefined;
  job: Job | undefined;
}

/**
 * An offline baseline whose forecasts run in worker threads: each `predict` is cut into chunks of
 * series (at most {@link MAX_CHUNK}) that the workers take in order, so a long AutoETS or MSTL
 * call neither blocks the event loop nor holds more than `workers` cores. Answers equal the
 * in-thread model's (the same code, series by series). A call whose `signal` fires drops its queued
 * chunks at once. A worker that crashes fails its chunk's call with `inference_failed` naming the
 * reason and is replaced, at most {@link MAX_BASELINE_WORKER_RESTARTS} times.
 */
export class WorkerBaseline implements ForecastModel {
  readonly name: string;
  readonly nativeHorizon: number;
  readonly quantiles: readonly number[];
  readonly patchSize?: number;
  readonly #spec: BaselineSpec;
  readonly #slots: Slot[];
  readonly #queue: Job[] = [];
  #restarts = 0;
  #lastCrash: string | undefined;
  #disposed = false;
  #gaveUp = false;
  #nextId = 0;

  constructor(spec: BaselineSpec, options: WorkerBaselineOptions = {}) {
    const workers = options.workers ?? 1;
    if (!Number.isInteger(workers) || workers < 1) {
      throw new InferkitError('config', `workers must be a positive integer, got ${workers}`, { param: 'workers' });
    }
    const local = createBaseline(spec); // validates the options here, with the in-thread error
    this.name = local.name;
    this.nativeHorizon = local.nativeHorizon;
    this.quantiles = local.quantiles;
    if (local.patchSize !== undefined) {
      this.patchSize = local.patchSize;
    }
    this.#spec = spec;
    this.#slots = Array.from({ length: workers }, () => ({ worker: undefined, job: undefined }));
  }

  /** Worker threads. */
  get workers(): number {
    return this.#slots.length;
  }

  /** Chunks waiting for a worker (all calls together). */
  get queued(): number {
    return this.#queue.length;
  }

  /** Replacement workers started so far. */
  get restarts(): number {
    return this.#restarts;
  }

  /** Starts every worker; rejects with the first load error. */
  async start(): Promise<void> {
    await Promise.all(this.#slots.map((slot) => this.#spawn(slot)));
  }

  async predict(batch: readonly Float32Array[], horizon: number, opts: PredictOptions = {}): Promise<ModelForecast> {
    const signal = opts.signal;
    signal?.throwIfAborted();
    if (this.#disposed) {
      throw new InferkitError('model_not_ready', `model "${this.name}" was disposed`);
    }
    if (this.#gaveUp) {
      throw this.#gaveUpError();
    }
    if (batch.length === 0) {
      return { levels: this.quantiles, values: [], mean: [] };
    }
    // Up to 4 chunks per worker (so a long call balances across them), but not below MIN_CHUNK series
    // each: a message to a worker costs about what a few cheap series (Theta) do, so tiny chunks cost more than they spread.
    const chunks = Math.max(Math.ceil(batch.length / MAX_CHUNK), Math.min(4 * this.#slots.length, Math.ceil(batch.length / MIN_CHUNK)));
    const jobs: Job[] = [];
    const parts: Array<Promise<ModelForecast>> = [];
    const sizes = evenSizes(batch.length, chunks);
    const frequencyParts = opts.frequencies && slicesOf(opts.frequencies, sizes);
    slicesOf(batch, sizes).forEach((part, k) => {
      // Copies: the caller keeps its arrays; the copies' buffers move to the worker.
      const series = part.map((s) => Float32Array.from(s));
      const frequencies = frequencyParts?.[k] as Frequency[] | undefined;
      parts.push(new Promise<ModelForecast>((resolve, reject) => jobs.push({ task: { series, horizon, ...(frequencies ? { frequencies } : {}) }, signal, resolve, reject })));
    });
    this.#queue.push(...jobs);
    const settled = Promise.all(parts);
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        for (let i = this.#queue.length - 1; i >= 0; i--) {
          if (jobs.includes(this.#queue[i])) {
            this.#queue.splice(i, 1);
          }
        }
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    settled.catch(() => undefined);
    aborted.catch(() => undefined);
    this.#pump();
    try {
      const outs = await (signal ? Promise.race([settled, aborted]) : settled);
      const values = outs.flatMap((o) => o.values);
      const means = outs.map((o) => o.mean);
      return means.every((m): m is Float32Array[] => m !== undefined) ? { levels: outs[0].levels, values, mean: means.flat() } : { levels: outs[0].levels, values };
    } finally {
      if (onAbort) {
        signal?.removeEventListener('abort', onAbort);
      }
    }
  }

  /** Stops every worker at once, as a crash would (tests; an abandoned call). Replacements count against the bound. */
  async kill(reason = 'killed'): Promise<void> {
    await Promise.all(
      this.#slots.map(async (slot) => {
        const worker = slot.worker;
        if (worker !== undefined) {
          this.#crashed(slot, worker, reason);
          await worker.terminate();
        }
      }),
    );
  }

  async dispose(): Promise<void> {
    if (this.#disposed) {
      return;
    }
    this.#disposed = true;
    const gone = new InferkitError('model_not_ready', `model "${this.name}" was disposed`);
    for (const job of this.#queue.splice(0)) {
      job.reject(gone);
    }
    await Promise.all(
      this.#slots.map(async (slot) => {
        const { worker, job } = slot;
        slot.worker = undefined;
        slot.job = undefined;
        job?.reject(gone);
        await worker?.terminate();
      }),
    );
  }

  #spawn(slot: Slot): Promise<void> {
    const entry = workerEntry('baseline-worker');
    const worker = new Worker(entry.script, { eval: entry.eval, workerData: { inferkitBaselineWorker: { spec: this.#spec } } });
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      worker.on('message', (message: FromBaselineWorker) => {
        if (message.kind === 'ready') {
          ready = true;
          if (this.#disposed) {
            void worker.terminate();
          } else {
            slot.worker = worker;
            worker.unref();
            this.#pump();
          }
          resolve();
        } else if (message.kind === 'load-failed') {
          void worker.terminate();
          reject(new InferkitError(message.code as InferkitErrorCode, message.message));
        } else {
          this.#settle(slot, worker, message);
        }
      });
      const fail = (reason: string) => {
        if (!ready) {
          reject(new InferkitError('model_load_failed', `the forecasting worker of "${this.name}" failed to start: ${reason}`));
        }
        this.#crashed(slot, worker, reason);
      };
      worker.on('error', (e) => fail(e.message));
      worker.on('exit', (code) => fail(`exited with code ${code}`));
    });
  }

  #pump(): void {
    for (const slot of this.#slots) {
      if (slot.worker === undefined || slot.job !== undefined) {
        continue;
      }
      let job = this.#queue.shift();
      while (job?.signal?.aborted) {
        job = this.#queue.shift();
      }
      if (job === undefined) {
        return;
      }
      const task: BaselineTask = { kind: 'predict', id: ++this.#nextId, ...job.task };
      slot.job = job;
      slot.worker.ref();
      slot.worker.postMessage(task, buffersOf(task.series));
    }
  }

  #settle(slot: Slot, worker: Worker, message: Extract<FromBaselineWorker, { kind: 'result' | 'failed' }>): void {
    const job = slot.job;
    slot.job = undefined;
    worker.unref();
    if (message.kind === 'result') {
      job?.resolve({ levels: message.levels, values: message.values, ...(message.mean ? { mean: message.mean } : {}) });
    } else {
      job?.reject(new InferkitError(message.code as InferkitErrorCode, message.message, message.param !== undefined ? { param: message.param } : {}));
    }
    this.#pump();
  }

  /** A worker that stopped unasked: its chunk's call fails; a replacement starts (bounded). */
  #crashed(slot: Slot, worker: Worker, reason: string): void {
    if (slot.worker !== worker || this.#disposed) {
      return;
    }
    slot.worker = undefined;
    this.#lastCrash = reason;
    const job = slot.job;
    slot.job = undefined;
    job?.reject(new InferkitError('inference_failed', `the forecasting worker of "${this.name}" stopped (${reason}); the call failed`));
    if (this.#restarts < MAX_BASELINE_WORKER_RESTARTS) {
      this.#restarts++;
      this.#spawn(slot).catch(() => this.#giveUpIfNone());
    } else {
      this.#giveUpIfNone();
    }
  }

  #gaveUpError(): InferkitError {
    return new InferkitError('model_not_ready', `the forecasting workers of "${this.name}" crashed ${this.#restarts + 1} times (last: ${this.#lastCrash}); reload the model`);
  }

  /** With no worker left, queued calls fail with `model_not_ready`. */
  #giveUpIfNone(): void {
    if (this.#slots.some((s) => s.worker !== undefined)) {
      return;
    }
    this.#gaveUp = true;
    const error = this.#gaveUpError();
    for (const job of this.#queue.splice(0)) {
      job.reject(error);
    }
  }
}

/** Builds `spec` and starts its worker threads (see {@link WorkerBaseline}); rejects with the load error. */
export async function startWorkerBaseline(spec: BaselineSpec, options: WorkerBaselineOptions = {}): Promise<WorkerBaseline> {
  const model = new WorkerBaseline(spec, options);
  await model.start();
  return model;
}
