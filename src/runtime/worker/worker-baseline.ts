import type { Worker } from 'node:worker_threads';
import { InferkitError, type InferkitErrorCode } from '../../errors.js';
import { createBaseline, type BaselineSpec } from '../forecast/baseline-spec.js';
import type { ForecastModel, ForecastTask, ModelForecast, PredictOptions } from '../forecast/forecast-model.js';
import { joinForecasts, seriesChunks, taskChunks } from './baseline-chunks.js';
import { arraysOf, buffersOf, type BaselinePayload, type BaselineTask, type FromBaselineWorker } from './baseline-messages.js';
import { startWorker } from './worker-entry.js';

/** Replacement workers a {@link WorkerBaseline} starts after crashes before it gives up. */
export const MAX_BASELINE_WORKER_RESTARTS = 3;

/** Options of {@link startWorkerBaseline}. */
export interface WorkerBaselineOptions {
  /** Worker threads (the cores the baseline may use). @default 1 */
  workers?: number;
}

interface Job {
  payload: BaselinePayload;
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
 * at most 16 series (`predictTasks`, for models that read covariates: of whole tasks) that the
 * workers take in order, so a long AutoETS or MSTL call neither blocks the event loop nor holds
 * more than `workers` cores. Answers equal the in-thread model's (the same code, series by series). A call whose `signal` fires drops its queued
 * chunks at once. A worker that crashes fails its chunk's call with `inference_failed` naming the
 * reason and is replaced, at most {@link MAX_BASELINE_WORKER_RESTARTS} times.
 */
export class WorkerBaseline implements ForecastModel {
  readonly name: string;
  readonly nativeHorizon: number;
  readonly quantiles: readonly number[];
  readonly patchSize?: number;
  /**
   * Present when the model has it (AutoARIMA, the stat-ensemble): tasks with their covariates are
   * forecast in the workers as in the thread, so served regressors reach the model.
   */
  readonly predictTasks?: (tasks: readonly ForecastTask[], horizon: number, options?: PredictOptions) => Promise<ModelForecast>;
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
    if (local.predictTasks !== undefined) {
      this.predictTasks = (tasks, horizon, opts) => this.#predictTasks(tasks, horizon, opts);
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
    this.#check(opts.signal);
    if (batch.length === 0) {
      return { levels: this.quantiles, values: [], mean: [] };
    }
    return joinForecasts(await this.#run(seriesChunks(batch, horizon, opts.frequencies, this.#slots.length), opts.signal));
  }

  /** Forecasts whole tasks (targets with their covariates) in the workers: chunks of whole tasks; warnings keep the call's task indices. */
  async #predictTasks(tasks: readonly ForecastTask[], horizon: number, opts: PredictOptions = {}): Promise<ModelForecast> {
    this.#check(opts.signal);
    if (tasks.length === 0) {
      return { levels: this.quantiles, values: [], mean: [] };
    }
    const { chunks, first } = taskChunks(tasks, horizon, opts.frequencies, this.#slots.length);
    return joinForecasts(await this.#run(chunks, opts.signal), first);
  }

  /** Throws when the call cannot start: aborted, disposed, or the workers gave up. */
  #check(signal: AbortSignal | undefined): void {
    signal?.throwIfAborted();
    if (this.#disposed) {
      throw new InferkitError('model_not_ready', `model "${this.name}" was disposed`);
    }
    if (this.#gaveUp) {
      throw this.#gaveUpError();
    }
  }

  /** Queues `payloads` as one call's chunks and waits for all of them (or the signal, which drops the queued ones at once). */
  async #run(payloads: readonly BaselinePayload[], signal: AbortSignal | undefined): Promise<ModelForecast[]> {
    const jobs: Job[] = [];
    const parts = payloads.map((payload) => new Promise<ModelForecast>((resolve, reject) => jobs.push({ payload, signal, resolve, reject })));
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
      return await (signal ? Promise.race([settled, aborted]) : settled);
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
    const worker = startWorker('baseline-worker', { inferkitBaselineWorker: { spec: this.#spec } });
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
      const task: BaselineTask = { ...job.payload, id: ++this.#nextId };
      slot.job = job;
      slot.worker.ref();
      slot.worker.postMessage(task, buffersOf(arraysOf(task)));
    }
  }

  #settle(slot: Slot, worker: Worker, message: Extract<FromBaselineWorker, { kind: 'result' | 'failed' }>): void {
    const job = slot.job;
    slot.job = undefined;
    worker.unref();
    if (message.kind === 'result') {
      job?.resolve({ levels: message.levels, values: message.values, ...(message.mean ? { mean: message.mean } : {}), ...(message.taskWarnings ? { taskWarnings: message.taskWarnings } : {}) });
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
