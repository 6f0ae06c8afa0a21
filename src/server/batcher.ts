import { InferkitError } from '../errors.js';

/** Limits of dynamic batching. */
export interface BatcherOptions {
  /** Most items (texts) in one merged model call; `0` or `1` disables merging. @default 32 */
  maxBatchSize?: number;
  /**
   * `0` disables merging. Otherwise, with `waitWhenIdle` off (the default), no request waits on a
   * timer: an idle model starts at the end of the current event-loop turn, a busy one takes what queued
   * up when its call ends. With `waitWhenIdle`, the longest time (ms) the first request of an idle model
   * is held for others to join. @default 5
   */
  maxWaitMs?: number;
  /** Hold the first request of an idle model up to `maxWaitMs` for others (more merging, a latency tax at low load). @default false */
  waitWhenIdle?: boolean;
  /**
   * Merged calls allowed to run at once. `2` suits a model in a worker thread: the next batch is
   * tokenized and queued at the worker while the current one runs, so the worker never waits for the
   * main thread. @default 1
   */
  maxConcurrentCalls?: number;
  /** Called after each model call with the number of items and requests it merged. */
  onBatch?: (items: number, requests: number) => void;
  /**
   * When a merged call of several requests fails, run each request alone so that only the
   * requests whose own call fails are rejected (one bad input cannot fail its neighbours).
   * @default false (a failing merged call rejects every request in it)
   */
  isolateFailures?: boolean;
}

/**
 * Why a merged call started: `idle` — the model was idle, it started at once (no wait window);
 * `busy` — the requests queued while the previous call ran; `full` — `maxBatchSize` items were
 * waiting; `window` — the `waitWhenIdle` timer ran out; `overlap` — started at once beside a running
 * call (`maxConcurrentCalls` > 1).
 */
export type BatchStart = 'idle' | 'busy' | 'full' | 'window' | 'overlap';

interface Pending<I, O> {
  items: I[];
  signal?: AbortSignal;
  resolve: (out: O[]) => void;
  reject: (e: unknown) => void;
}

/**
 * Hands outputs of a merged call over early: `indices` into the call's items, `outputs` in the same
 * order. A request is answered as soon as all its items have been emitted.
 */
export type EmitOutputs<O> = (indices: readonly number[], outputs: readonly O[]) => void;

/**
 * Merges concurrent requests into one call of `run`. Each request's items stay together and in
 * order, requests are taken first-come first-served until `maxBatchSize` items, and each request
 * gets back exactly its own slice of the outputs. One merged call runs at a time; requests that
 * arrive meanwhile wait for the next one, so a busy model batches more while an idle one starts at
 * once: no latency tax at low load (`decisions` records why each call started). A failing call
 * rejects every request in it (unless `isolateFailures`).
 *
 * `run(items)` must return one output per item, in order, and its output for an item must not
 * depend on the other items (the caller guarantees that; the token classifier does).
 */
export class Batcher<I, O> {
  readonly maxBatchSize: number;
  readonly maxWaitMs: number;
  private readonly queue: Pending<I, O>[] = [];
  private queuedItems = 0;
  private inFlight = 0;
  private readonly maxConcurrentCalls: number;
  private cancelledCount = 0;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private readonly waitWhenIdle: boolean;
  private readonly starts: Record<BatchStart, number> = { idle: 0, busy: 0, full: 0, window: 0, overlap: 0 };
  private readonly run: (items: I[], signal?: AbortSignal, emit?: EmitOutputs<O>) => Promise<O[]>;
  private readonly onBatch: ((items: number, requests: number) => void) | undefined;
  private readonly isolateFailures: boolean;

  /**
   * `run(items, signal)`: `signal` aborts once every request of the call is gone (their clients
   * disconnected), so a model that checks it stops early; it is undefined when some request of
   * the call has no signal. `emit` (optional to call) answers requests before the whole call ends.
   */
  constructor(run: (items: I[], signal?: AbortSignal, emit?: EmitOutputs<O>) => Promise<O[]>, options: BatcherOptions = {}) {
    this.run = run;
    this.isolateFailures = options.isolateFailures === true;
    this.maxBatchSize = Math.max(0, Math.floor(options.maxBatchSize ?? 32));
    this.maxWaitMs = Math.max(0, options.maxWaitMs ?? 5);
    this.onBatch = options.onBatch;
    this.waitWhenIdle = options.waitWhenIdle === true;
    this.maxConcurrentCalls = Math.max(1, Math.floor(options.maxConcurrentCalls ?? 1));
  }

  /** How many merged calls started for each reason (see {@link BatchStart}). */
  get decisions(): Readonly<Record<BatchStart, number>> {
    return { ...this.starts };
  }

  /** True when requests are merged (both limits above their disabling values). */
  get enabled(): boolean {
    return this.maxBatchSize > 1 && this.maxWaitMs > 0;
  }

  /** Runs `items` (one request's) alone or merged with others; resolves with this request's outputs. */
  submit(items: I[], signal?: AbortSignal): Promise<O[]> {
    if (signal?.aborted) {
      return Promise.reject(cancelled());
    }
    if (!this.enabled || items.length === 0) {
      return this.call(items, 1, signal);
    }
    return new Promise<O[]>((resolve, reject) => {
      const pending: Pending<I, O> = { items, signal, resolve, reject };
      this.queue.push(pending);
      this.queuedItems += items.length;
      // A request whose client went away leaves the queue before its model call: no work for nobody.
      signal?.addEventListener('abort', () => {
        const at = this.queue.indexOf(pending);
        if (at >= 0) {
          this.queue.splice(at, 1);
          this.queuedItems -= items.length;
          this.cancelledCount++;
          reject(cancelled());
        }
      }, { once: true });
      this.schedule();
    });
  }

  /** Requests removed from the queue because their client disconnected. */
  get cancelled(): number {
    return this.cancelledCount;
  }

  /** Number of requests waiting for a model call. */
  get waiting(): number {
    return this.queue.length;
  }

  /** True when nothing waits and no merged call runs (the batcher can be dropped). */
  get idle(): boolean {
    return this.queue.length === 0 && this.inFlight === 0;
  }

  private async call(items: I[], requests: number, signal?: AbortSignal, emit?: EmitOutputs<O>): Promise<O[]> {
    const out = await this.run(items, signal, emit);
    if (out.length !== items.length) {
      throw new InferkitError('internal', `batched model call returned ${out.length} outputs for ${items.length} inputs`);
    }
    this.onBatch?.(items.length, requests);
    return out;
  }

  private schedule(): void {
    if (this.inFlight >= this.maxConcurrentCalls || this.queue.length === 0) {
      return;
    }
    if (this.inFlight > 0) {
      // Beside running calls: after this event-loop turn, so that requests parsed in the same turn join.
      this.immediate ??= setImmediate(() => this.flush('overlap'));
    } else if (this.queuedItems >= this.maxBatchSize) {
      this.flush('full');
    } else if (this.waitWhenIdle) {
      this.timer ??= setTimeout(() => this.flush('window'), this.maxWaitMs);
    } else {
      // Idle: start now — after the current event-loop turn, so requests parsed in the same turn join.
      this.immediate ??= setImmediate(() => this.flush('idle'));
    }
  }

  private flush(reason: BatchStart): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.immediate !== undefined) {
      clearImmediate(this.immediate);
      this.immediate = undefined;
    }
    if (this.inFlight >= this.maxConcurrentCalls || this.queue.length === 0) {
      return;
    }
    const batch: Pending<I, O>[] = [];
    let count = 0;
    while (this.queue.length > 0) {
      const next = this.queue[0];
      if (batch.length > 0 && count + next.items.length > this.maxBatchSize) {
        break;
      }
      this.queue.shift();
      batch.push(next);
      count += next.items.length;
    }
    this.queuedItems -= count;
    this.starts[reason]++;
    this.inFlight++;
    void this.runBatch(batch).finally(() => {
      this.inFlight--;
      // Requests that queued up while the model was busy go out at once: they have waited already.
      if (this.queue.length > 0) {
        if (this.inFlight === 0) {
          this.flush('busy');
        } else {
          this.schedule();
        }
      }
    });
  }

  private async runBatch(batch: Pending<I, O>[]): Promise<void> {
    const items = batch.flatMap((p) => p.items);
    // Which request owns each item, and how many of its items are still unanswered.
    const owner: number[] = [];
    const starts: number[] = [];
    batch.forEach((p, b) => {
      starts.push(owner.length);
      for (let k = 0; k < p.items.length; k++) {
        owner.push(b);
      }
    });
    const left = batch.map((p) => p.items.length);
    const got = new Array<O>(items.length);
    const answer = (b: number): void => {
      left[b] = -1;
      batch[b].resolve(got.slice(starts[b], starts[b] + batch[b].items.length));
    };
    const emit: EmitOutputs<O> = (indices, outputs) => {
      indices.forEach((at, k) => {
        const b = owner[at];
        if (b === undefined || left[b] <= 0) {
          return;
        }
        got[at] = outputs[k];
        if (--left[b] === 0) {
          answer(b);
        }
      });
    };
    try {
      const out = await this.call(items, batch.length, whenAllAborted(batch.map((p) => p.signal)), emit);
      batch.forEach((p, b) => {
        if (left[b] >= 0) {
          for (let k = 0; k < p.items.length; k++) {
            got[starts[b] + k] = out[starts[b] + k];
          }
          answer(b);
        }
      });
    } catch (e) {
      const unanswered = batch.filter((_, b) => left[b] >= 0);
      if (!this.isolateFailures || unanswered.length === 1) {
        for (const p of unanswered) {
          p.reject(e);
        }
        return;
      }
      // One request's input may be what broke the merged call: each request runs alone instead.
      for (const p of unanswered) {
        await this.call(p.items, 1, p.signal).then(p.resolve, p.reject);
      }
    }
  }
}

/** A signal that aborts once all `signals` have; undefined when one is missing (that request cannot go away). */
function whenAllAborted(signals: ReadonlyArray<AbortSignal | undefined>): AbortSignal | undefined {
  if (signals.length === 0 || signals.some((s) => s === undefined)) {
    return undefined;
  }
  const all = signals as readonly AbortSignal[];
  if (all.length === 1) {
    return all[0];
  }
  const controller = new AbortController();
  const check = (): void => {
    if (!controller.signal.aborted && all.every((s) => s.aborted)) {
      controller.abort();
    }
  };
  for (const s of all) {
    s.addEventListener('abort', check, { once: true });
  }
  check();
  return controller.signal;
}

function cancelled(): InferkitError {
  return new InferkitError('invalid_request', 'request cancelled: the client disconnected');
}
