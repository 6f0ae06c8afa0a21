import { InferkitError } from '../../errors.js';

/** What one {@link RunQueue.submit} call adds. */
export interface RunQueueCall<O> {
  /** Cancels the call's items that have not started; runs already started finish first. */
  signal?: AbortSignal;
  /** Called as each run holding some of the call's items ends, with those items' indices and outputs. */
  onChunk?: (indices: readonly number[], outputs: readonly O[]) => void;
}

/** How a {@link RunQueue} forms and starts runs. */
export interface RunQueueOptions<I, O> {
  /** Most items per run. */
  maxRunSize: number;
  /**
   * Runs the session runs side by side (its replicas). One run more is handed over, so that a run waits ready while
   * they run, but only a full one (or a lone call's): a few texts wait instead for the next run to free, and go with
   * what joins them meanwhile.
   */
  parallelRuns: () => number;
  /** An item's padded size in a run (token count): runs group items of similar size. */
  size: (item: I) => number;
  /**
   * Runs whose items are packed, not padded (see packedRows): a run is cut by the sum of its items' sizes, at most
   * this, shared evenly among the runs that can start now, and takes the oldest items first (their sizes no longer
   * matter). Without it, runs are cut by count around items of similar size.
   */
  maxRunTokens?: number;
  /** Runs `items` (one ORT run); returns one output per item, in order. */
  start: (items: I[]) => Promise<O[]>;
}

interface Call<I, O> {
  /** Submission order: the oldest call with items waiting anchors the next run. */
  age: number;
  items: readonly I[];
  outputs: O[];
  left: number;
  running: number;
  error: unknown;
  options: RunQueueCall<O>;
  resolve: (out: O[]) => void;
  reject: (e: unknown) => void;
}

interface Waiting<I, O> {
  call: Call<I, O>;
  index: number;
  size: number;
}

/**
 * One queue of items (tokenized texts) in front of a session: every call's items wait together, and each run
 * is formed when the session can take it, from everything waiting at that moment. A run takes the oldest
 * call's largest waiting item and fills up with the waiting items nearest to it in size, from any call, so
 * overlapping calls (the server's merged requests) pad as little as one sorted call of all their texts. Runs are
 * full while other calls are about (what is left is joined by what keeps coming); a lone call runs exactly as a
 * sorted call would: its largest items first, in even runs (17 items, at most 8 per run: 6, 6, 5). Replicas of a
 * session pool take the runs as they free up, and one run more than they run at once is handed over ahead.
 */
export class RunQueue<I, O> {
  readonly #options: RunQueueOptions<I, O>;
  /** In submission order (call age, then index): only appended to and filtered. */
  #waiting: Waiting<I, O>[] = [];
  #running = 0;
  #age = 0;
  #pumpQueued = false;
  /** Calls with a run running. */
  readonly #busy = new Set<Call<I, O>>();

  constructor(options: RunQueueOptions<I, O>) {
    this.#options = options;
  }

  /** Items waiting for a run. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Runs `items` (each in some run) and resolves with their outputs in order; rejects with the first failed run's error. */
  submit(items: readonly I[], options: RunQueueCall<O> = {}): Promise<O[]> {
    if (items.length === 0) {
      return Promise.resolve([]);
    }
    return new Promise<O[]>((resolve, reject) => {
      const call: Call<I, O> = { age: this.#age++, items, outputs: new Array<O>(items.length), left: items.length, running: 0, error: undefined, options, resolve, reject };
      if (options.signal?.aborted) {
        reject(aborted(options.signal));
        return;
      }
      items.forEach((item, index) => this.#waiting.push({ call, index, size: this.#options.size(item) }));
      // At the end of this turn: calls submitted together share their runs.
      if (!this.#pumpQueued) {
        this.#pumpQueued = true;
        queueMicrotask(() => {
          this.#pumpQueued = false;
          this.#pump();
        });
      }
    });
  }

  #pump(): void {
    const parallel = Math.max(1, this.#options.parallelRuns());
    while (this.#running <= parallel) {
      this.#dropCancelled();
      if (this.#waiting.length === 0) {
        return;
      }
      const lone = this.#lone();
      const budget = this.#options.maxRunTokens;
      const tokens = budget === undefined ? 0 : this.#waiting.reduce((n, w) => n + w.size, 0);
      const full = budget === undefined ? this.#waiting.length >= this.#options.maxRunSize : tokens >= budget;
      if (this.#running === parallel && !full && !lone) {
        return;
      }
      const run = this.#take(budget === undefined ? this.#nextRun(lone, parallel - this.#running) : this.#nextPackedRun(budget, tokens, parallel - this.#running));
      this.#running++;
      for (const w of run) {
        w.call.running++;
        this.#busy.add(w.call);
      }
      void this.#start(run);
    }
  }

  /** Takes the items of aborted or failed calls out of the queue (their calls settle once their runs end). */
  #dropCancelled(): void {
    if (!this.#waiting.some((w) => w.call.error !== undefined || w.call.options.signal?.aborted === true)) {
      return;
    }
    const touched = new Set<Call<I, O>>();
    this.#waiting = this.#waiting.filter((w) => {
      const signal = w.call.options.signal;
      if (w.call.error === undefined && signal?.aborted === true) {
        w.call.error = aborted(signal);
      }
      if (w.call.error !== undefined) {
        touched.add(w.call);
        return false;
      }
      return true;
    });
    touched.forEach((c) => this.#settle(c));
  }

  /** True when every waiting and running item is one call's. */
  #lone(): boolean {
    const only = this.#waiting[0]?.call;
    return this.#waiting.every((w) => w.call === only) && [...this.#busy].every((c) => c === only);
  }

  /**
   * The next packed run (`tokens` wait in all): the oldest waiting items (the queue is in submission order), up to
   * an even share of the waiting tokens among the `free` runs that can start now and the runs the budget needs; a run
   * handed over ahead (`free` 0) takes a whole budget. Always one item at least.
   */
  #nextPackedRun(budget: number, tokens: number, free: number): Waiting<I, O>[] {
    const cap = free <= 0 ? budget : Math.min(budget, Math.ceil(tokens / Math.max(free, Math.ceil(tokens / budget))));
    const max = Math.max(1, Math.floor(this.#options.maxRunSize));
    const run: Waiting<I, O>[] = [];
    let sum = 0;
    for (const w of this.#waiting) {
      if (run.length === max || (run.length > 0 && sum + w.size > cap)) {
        break;
      }
      run.push(w);
      sum += w.size;
    }
    return run;
  }

  /** Takes `run`'s items out of the queue. */
  #take(run: Waiting<I, O>[]): Waiting<I, O>[] {
    const taken = new Set(run);
    this.#waiting = this.#waiting.filter((w) => !taken.has(w));
    return run;
  }

  /**
   * The next run: full (a `lone` call's: an even share, over at least the `free` runs that can start now) of what
   * waits, around the oldest call's largest item, the least padding.
   */
  #nextRun(lone: boolean, free: number): Waiting<I, O>[] {
    const all = this.#waiting;
    const max = Math.max(1, Math.floor(this.#options.maxRunSize));
    const n = all.length;
    // A lone call (nothing else waiting or running) is cut evenly: a tiny last run costs nearly a full one; on
    // session replicas, into one run per idle replica at least, so the call runs side by side. With other calls
    // about, runs are full: what is left is joined by the texts that keep coming.
    const k = lone ? Math.ceil(n / Math.max(Math.ceil(n / max), Math.min(n, free))) : Math.min(max, n);
    // Largest first; equal sizes in submission order (a lone call's runs are its sorted chunks).
    const sorted = [...all].sort((a, b) => b.size - a.size || a.call.age - b.call.age || a.index - b.index);
    let anchor = 0;
    for (let i = 1; i < n; i++) {
      if (sorted[i].call.age < sorted[anchor].call.age) {
        anchor = i;
      }
    }
    // Windows of k consecutive items (by size) holding the anchor: the one with the least padding, the larger first on ties.
    let best = Math.max(0, anchor - k + 1);
    let bestPad = Infinity;
    for (let s = Math.max(0, anchor - k + 1); s <= Math.min(anchor, n - k); s++) {
      let pad = 0;
      for (let i = s; i < s + k; i++) {
        pad += sorted[s].size - sorted[i].size;
      }
      if (pad < bestPad) {
        bestPad = pad;
        best = s;
      }
    }
    // In submission order inside the run: a lone call's chunk hands its indices over in order.
    return sorted.slice(best, best + k).sort((a, b) => a.call.age - b.call.age || a.index - b.index);
  }

  async #start(run: Waiting<I, O>[]): Promise<void> {
    let outputs: O[] | undefined;
    let error: unknown;
    try {
      outputs = await this.#options.start(run.map((w) => w.call.items[w.index]));
    } catch (e) {
      error = e;
    }
    this.#running--;
    const calls = new Map<Call<I, O>, Array<[number, O]>>();
    run.forEach((w, k) => {
      if (--w.call.running === 0) {
        this.#busy.delete(w.call);
      }
      if (!calls.has(w.call)) {
        calls.set(w.call, []);
      }
      if (outputs !== undefined) {
        calls.get(w.call)?.push([w.index, outputs[k]]);
      } else {
        w.call.error ??= error ?? new InferkitError('inference_failed', 'A run failed');
      }
    });
    // The next run starts before this one's outputs are handed on: the session is not left idle while the
    // callers write their answers.
    this.#pump();
    for (const [call, got] of calls) {
      if (outputs !== undefined && call.error === undefined) {
        for (const [i, out] of got) {
          call.outputs[i] = out;
        }
        call.left -= got.length;
        try {
          call.options.onChunk?.(got.map(([i]) => i), got.map(([, out]) => out));
        } catch (e) {
          call.error = e;
        }
      }
      this.#settle(call);
    }
  }

  /** Resolves or rejects `call` once none of its runs is running and it is done or failed. */
  #settle(call: Call<I, O>): void {
    if (call.running > 0) {
      return;
    }
    if (call.error !== undefined) {
      if (this.#waiting.some((w) => w.call === call)) {
        this.#waiting = this.#waiting.filter((w) => w.call !== call);
      }
      call.reject(call.error);
    } else if (call.left === 0) {
      call.resolve(call.outputs);
    }
  }
}

/**
 * `queue.submit(items, call)` for a caller whose aborted calls fail with the signal's own reason (the forecasters, as
 * their calls cut into chunks do), not the queue's `inference_failed` "Inference aborted".
 */
export async function submitFailingWithReason<I, O>(queue: RunQueue<I, O>, items: readonly I[], call: RunQueueCall<O> = {}): Promise<O[]> {
  try {
    return await queue.submit(items, call);
  } catch (e) {
    call.signal?.throwIfAborted();
    throw e;
  }
}

function aborted(signal: AbortSignal): InferkitError {
  return new InferkitError('inference_failed', 'Inference aborted', { cause: signal.reason });
}
