import { InferkitError } from '../errors.js';

/** How a {@link RunQueue} cuts its queue into runs. */
export interface RunQueueOptions<I> {
  /** Most items (texts, series) in one run. */
  runSize: number;
  /** Runs at once: one per session replica. @default 1 */
  slots?: number;
  /**
   * An item's length (a text's tokens): a run is its queue's oldest item plus the queued items closest
   * to it in length, so one run pads little and the oldest item never waits behind younger ones.
   * @default every item 0 (first come, first served)
   */
  lengthOf?: (item: I) => number;
  /** Observes each run that succeeded: its items and how many requests they came from. */
  onRun?: (items: number, requests: number) => void;
}

interface Request<O> {
  out: O[];
  /** Items not answered yet. */
  left: number;
  /** Answered, rejected or cancelled: later outputs are dropped. */
  done: boolean;
  resolve: (out: O[]) => void;
  reject: (e: unknown) => void;
}

interface Queued<I, O> {
  item: I;
  length: number;
  request: Request<O>;
  /** Index of the item in its request. */
  index: number;
}

/**
 * Requests' items in ONE queue per model, cut into runs as the model frees: whenever fewer than
 * `slots` runs are in flight, the next run takes the oldest queued item and fills up (to `runSize`)
 * with the queued items closest to it in length. No timers and no guesses: a lone request on an idle
 * model starts at once, a busy model's queue grows until a replica frees and takes a full run of
 * similar lengths. A request is answered when the run of its last item ends; a request whose signal
 * aborts leaves the queue (its items not yet running never run). A run that fails is retried item by
 * item, so one bad input fails only its own request.
 *
 * `run(items)` must return one output per item, in order, independent of the other items of the run.
 *
 * Not wired into the server: tried for token classification in place of the merging `Batcher`
 * (issue #25 item 5) it did not hold on both graphs (see src/server/README.md, "Run queue tried").
 */
export class RunQueue<I, O> {
  readonly runSize: number;
  readonly slots: number;
  readonly #run: (items: I[]) => Promise<O[]>;
  readonly #lengthOf: (item: I) => number;
  readonly #onRun: RunQueueOptions<I>['onRun'];
  #queue: Queued<I, O>[] = [];
  #running = 0;
  #pumpQueued = false;
  #cancelled = 0;

  constructor(run: (items: I[]) => Promise<O[]>, options: RunQueueOptions<I>) {
    this.#run = run;
    this.runSize = Math.max(1, Math.floor(options.runSize));
    this.slots = Math.max(1, Math.floor(options.slots ?? 1));
    this.#lengthOf = options.lengthOf ?? (() => 0);
    this.#onRun = options.onRun;
  }

  /** Queues one request's items; resolves with their outputs, in order. */
  submit(items: readonly I[], signal?: AbortSignal): Promise<O[]> {
    if (signal?.aborted) {
      return Promise.reject(cancelled());
    }
    if (items.length === 0) {
      return Promise.resolve([]);
    }
    return new Promise<O[]>((resolve, reject) => {
      const request: Request<O> = { out: new Array<O>(items.length), left: items.length, done: false, resolve, reject };
      items.forEach((item, index) => this.#queue.push({ item, length: this.#lengthOf(item), request, index }));
      signal?.addEventListener(
        'abort',
        () => {
          if (!request.done) {
            this.#cancelled++;
            this.#fail(request, cancelled());
          }
        },
        { once: true },
      );
      // After the current synchronous code: requests submitted together are seen together.
      if (!this.#pumpQueued) {
        this.#pumpQueued = true;
        queueMicrotask(() => {
          this.#pumpQueued = false;
          this.#pump();
        });
      }
    });
  }

  /** Items waiting for a run. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** Runs in flight. */
  get running(): number {
    return this.#running;
  }

  /** Requests that left the queue because their signal aborted (client disconnected). */
  get cancelled(): number {
    return this.#cancelled;
  }

  /** True when nothing waits and no run is in flight. */
  get idle(): boolean {
    return this.#queue.length === 0 && this.#running === 0;
  }

  #pump(): void {
    while (this.#running < this.slots && this.#queue.length > 0) {
      const run = this.#take();
      this.#running++;
      void this.#execute(run).finally(() => {
        this.#running--;
        this.#pump();
      });
    }
  }

  /** The oldest queued item and the queued items closest to it in length (older first on ties). */
  #take(): Queued<I, O>[] {
    const queue = this.#queue;
    if (queue.length <= this.runSize) {
      this.#queue = [];
      return queue;
    }
    const first = queue[0].length;
    const order = queue.map((_, i) => i).slice(1);
    order.sort((a, b) => Math.abs(queue[a].length - first) - Math.abs(queue[b].length - first) || a - b);
    const chosen = new Set(order.slice(0, this.runSize - 1));
    chosen.add(0);
    const run: Queued<I, O>[] = [];
    const rest: Queued<I, O>[] = [];
    queue.forEach((q, i) => (chosen.has(i) ? run : rest).push(q));
    this.#queue = rest;
    return run;
  }

  async #execute(run: Queued<I, O>[]): Promise<void> {
    let out: O[];
    try {
      out = await this.#run(run.map((q) => q.item));
      if (out.length !== run.length) {
        throw new InferkitError('internal', `model run returned ${out.length} outputs for ${run.length} inputs`);
      }
    } catch (e) {
      if (run.length === 1) {
        this.#fail(run[0].request, e);
        return;
      }
      // One item's input may be what broke the run: each runs alone, only its own request fails.
      for (const q of run) {
        if (!q.request.done) {
          await this.#execute([q]);
        }
      }
      return;
    }
    this.#onRun?.(run.length, new Set(run.map((q) => q.request)).size);
    run.forEach((q, k) => {
      const request = q.request;
      if (request.done) {
        return;
      }
      request.out[q.index] = out[k];
      if (--request.left === 0) {
        request.done = true;
        request.resolve(request.out);
      }
    });
  }

  /** Rejects `request` and drops its queued items. */
  #fail(request: Request<O>, e: unknown): void {
    request.done = true;
    this.#queue = this.#queue.filter((q) => q.request !== request);
    request.reject(e);
  }
}

function cancelled(): InferkitError {
  return new InferkitError('invalid_request', 'request cancelled: the client disconnected');
}
