import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InferkitError } from '../../errors.js';
import type { OrtFeeds, OrtOutput, OrtSession, OrtValueMetadata, SessionOptions } from '../ort-types.js';
import { shareableModel } from '../shared-weights/external-graph.js';
import { noteSessionWeights } from '../model-memory/measure-model-load.js';
import { poolGraph, type PoolWeights } from '../shared-weights/packed-graph.js';
import { envCacheDir } from '../../config.js';
import { packedCopyOffThread } from './external-copy.js';
import { WorkerSession } from './worker-session.js';

interface QueuedRun {
  feeds: OrtFeeds;
  resolve: (outputs: Record<string, OrtOutput>) => void;
  reject: (e: unknown) => void;
}

/**
 * Several copies of one ONNX model, each in its own worker thread with its own session, behind the
 * {@link OrtSession} interface: runs go to an idle replica at once, or wait (first come, first
 * served) for the first replica that frees up. Replicas with one intra-op thread each run batches side
 * by side with no synchronisation between threads: on BERT-base int8 two 1-thread replicas did 1.3×
 * the sentences/s of one 2-thread session with spinning on, 1.65× with it off (bench/RESULTS.md). The
 * price is batch-1 latency (one run uses one replica's threads); the weights are not copied per
 * replica: the sessions map one packed copy, made once into the model cache (src/runtime/shared-weights/).
 * A crashed replica restarts on its next run like a {@link WorkerSession}.
 *
 * An optional latency session (`latencyThreads`, more threads than a replica) takes a run only when
 * every replica is idle and nothing else waits: a lone request gets the speed of one session with
 * all threads, a loaded pool runs on the replicas alone.
 */
export class WorkerSessionPool implements OrtSession {
  inputNames: readonly string[] = [];
  outputNames: readonly string[] = [];
  outputMetadata: readonly OrtValueMetadata[] = [];
  readonly #replicas: WorkerSession[];
  readonly #busy: boolean[];
  readonly #queue: QueuedRun[] = [];
  #latency: WorkerSession | undefined;
  #latencyBusy = false;
  readonly #runs = { replicas: 0, latency: 0 };
  #dispatchQueued = false;
  #released = false;
  /** How the sessions hold the weights (set by {@link createWorkerSessionPool}; a pool built directly: as `options` say). */
  weights: PoolWeights | undefined;
  /** busyMs of a latency session dropped by tuneLatency (its tuning runs). */
  #droppedBusyMs = 0;

  /**
   * `threads[i]` intra-op threads for replica `i` (the first ones are preferred when several are
   * idle); `latencyThreads`, when set, opens the latency session with that many.
   */
  constructor(model: string | Uint8Array, options: SessionOptions, threads: readonly number[], latencyThreads?: number) {
    if (threads.length === 0 || threads.some((t) => !Number.isInteger(t) || t < 1)) {
      throw new InferkitError('config', `replicas need a positive whole number of threads each, got [${threads.join(', ')}]`);
    }
    if (latencyThreads !== undefined && (!Number.isInteger(latencyThreads) || latencyThreads < 1)) {
      throw new InferkitError('config', `latencyThreads must be a positive integer, got ${latencyThreads}`, { param: 'latencyThreads' });
    }
    const { worker: _worker, replicas: _replicas, replicaThreads: _threads, latencyThreads: _latency, ...own } = options;
    // How the sessions share the weights was chosen by createWorkerSessionPool (src/runtime/shared-weights/).
    this.#replicas = threads.map((t) => new WorkerSession(model, { ...own, intraOpThreads: t }));
    this.#busy = threads.map(() => false);
    this.#latency = latencyThreads !== undefined ? new WorkerSession(model, { ...own, intraOpThreads: latencyThreads }) : undefined;
  }

  /** Every session of the pool: the replicas, then the latency session if any. */
  get #sessions(): WorkerSession[] {
    return this.#latency ? [...this.#replicas, this.#latency] : this.#replicas;
  }

  /** Runs that can execute at once (one per replica). */
  get parallelRuns(): number {
    return this.#replicas.length;
  }

  /** Idle replicas no queued run is waiting for. */
  get idleRuns(): number {
    if (this.#released) {
      return 0;
    }
    return Math.max(0, this.#busy.filter((b) => !b).length - this.#queue.length);
  }

  /** Milliseconds the pool's sessions (replicas and latency session) spent on runs so far, summed. */
  get busyMs(): number {
    return this.#sessions.reduce((n, s) => n + s.busyMs, 0) + this.#droppedBusyMs;
  }

  /** Runs waiting for a replica to free up. */
  get queuedRuns(): number {
    return this.#queue.length;
  }

  /** Whether the latency session is open (it may have been dropped by {@link tuneLatency}). */
  get hasLatencySession(): boolean {
    return this.#latency !== undefined;
  }

  /**
   * Times `runs` runs of `feeds()` (a batch-1 input) on the latency session and on the first replica,
   * alternating, and releases the latency session unless its median is at least 10% faster — on some
   * graphs (BERT-base int8 on 2 CPUs) several threads without spinning are no faster at batch 1, and
   * the copy of the weights buys nothing. Call it before any other run. Undefined without a latency session.
   */
  async tuneLatency(feeds: () => OrtFeeds, runs = 5): Promise<{ latencyMs: number; replicaMs: number; kept: boolean } | undefined> {
    const latency = this.#latency;
    if (latency === undefined) {
      return undefined;
    }
    const replica = this.#replicas[0];
    const times: Record<'latency' | 'replica', number[]> = { latency: [], replica: [] };
    for (let i = 0; i <= runs; i++) {
      for (const [key, session] of [['latency', latency], ['replica', replica]] as const) {
        const t0 = performance.now();
        await session.run(feeds());
        if (i > 0) {
          times[key].push(performance.now() - t0); // the first round warms up
        }
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const latencyMs = median(times.latency);
    const replicaMs = median(times.replica);
    const kept = latencyMs <= 0.9 * replicaMs;
    if (!kept) {
      this.#latency = undefined;
      this.#droppedBusyMs = latency.busyMs;
      await latency.release();
    }
    return { latencyMs, replicaMs, kept };
  }

  /** Runs started so far on the replicas and on the latency session. */
  get runCounts(): { replicas: number; latency: number } {
    return { ...this.#runs };
  }

  /** Restarts of all replicas so far. */
  get restarts(): number {
    return this.#sessions.reduce((n, r) => n + r.restarts, 0);
  }

  /** Opens every replica; if one fails, the others are released and its load error is thrown. */
  async start(): Promise<void> {
    const started = await Promise.allSettled(this.#sessions.map((r) => r.start()));
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed !== undefined) {
      await Promise.allSettled(this.#sessions.map((r) => r.release()));
      throw failed.reason;
    }
    const first = this.#replicas[0];
    this.inputNames = first.inputNames;
    this.outputNames = first.outputNames;
    this.outputMetadata = first.outputMetadata;
  }

  run(feeds: OrtFeeds): Promise<Record<string, OrtOutput>> {
    if (this.#released) {
      return Promise.reject(new InferkitError('model_not_ready', 'the session was released'));
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ feeds, resolve, reject });
      // Dispatched after the current synchronous code: runs handed over together (a call's chunks) are
      // seen together, so only a truly lone run goes to the latency session.
      if (!this.#dispatchQueued) {
        this.#dispatchQueued = true;
        queueMicrotask(() => {
          this.#dispatchQueued = false;
          this.#dispatch();
        });
      }
    });
  }

  async release(): Promise<void> {
    if (this.#released) {
      return;
    }
    this.#released = true;
    const waiting = this.#queue.splice(0);
    for (const run of waiting) {
      run.reject(new InferkitError('model_not_ready', 'the session was released'));
    }
    await Promise.allSettled(this.#sessions.map((r) => r.release()));
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      // A lone run on an idle pool goes to the latency session (all threads), anything else to a replica.
      if (this.#latency !== undefined && !this.#latencyBusy && this.#queue.length === 1 && !this.#busy.includes(true)) {
        this.#latencyBusy = true;
        this.#runs.latency++;
        this.#start(this.#latency, () => (this.#latencyBusy = false));
        continue;
      }
      const free = this.#busy.indexOf(false);
      if (free < 0) {
        return;
      }
      this.#busy[free] = true;
      this.#runs.replicas++;
      this.#start(this.#replicas[free], () => (this.#busy[free] = false));
    }
  }

  /**
   * Runs the oldest queued run on `session`. `free` marks it idle (and the next queued run is
   * dispatched) before the caller hears back, so the caller sees the pool's real state.
   */
  #start(session: WorkerSession, free: () => void): void {
    const run = this.#queue.shift() as QueuedRun;
    const done = (): void => {
      free();
      this.#dispatch();
    };
    session.run(run.feeds).then(
      (outputs) => {
        done();
        run.resolve(outputs);
      },
      (e: unknown) => {
        done();
        run.reject(e);
      },
    );
  }
}

/** Opens `threads.length` replicas of `model` (see {@link WorkerSessionPool}); rejects with the load error. */
export async function createWorkerSessionPool(model: string | Uint8Array, options: SessionOptions, threads: readonly number[], latencyThreads?: number): Promise<WorkerSessionPool> {
  const cacheDir = options.cacheDir ?? envCacheDir();
  // A graph with inline weights is opened from its external-data copy (made once), so its sessions share them.
  const graph = await shareableModel(model, cacheDir);
  // Its sessions open one packed copy of the weights, made once (src/runtime/shared-weights/packed-graph.ts).
  const sessions = threads.length + (latencyThreads !== undefined ? 1 : 0);
  const shared = await poolGraph(graph, options, sessions, (g, level) => packedCopyOffThread(g, level, cacheDir));
  let pool = new WorkerSessionPool(shared.model, shared.options, threads, latencyThreads);
  pool.weights = shared.weights;
  try {
    await pool.start();
  } catch (e) {
    if (shared.weights.kind !== 'packed') {
      throw e;
    }
    // The copy was made, yet does not open: the graph itself still may. The copy goes, so that the next start makes it anew.
    const reason = `its packed copy ${shared.weights.graph} did not open (removed; made again at the next start): ${e instanceof Error ? e.message : String(e)}`;
    await rm(dirname(shared.weights.graph), { recursive: true, force: true }).catch(() => undefined);
    const plain = await poolGraph(graph, options, sessions, () => Promise.reject(new Error(reason)));
    pool = new WorkerSessionPool(plain.model, plain.options, threads, latencyThreads);
    pool.weights = plain.weights;
    await pool.start();
  }
  if (pool.weights !== undefined) {
    noteSessionWeights(pool.weights.kind); // for the model's memory line (inferkit serve, /inferkit/v1/services)
  }
  if (pool.weights?.kind !== 'packed' && pool.weights?.reason !== undefined) {
    // Slower runs, or a copy per session: said once, where the process's warnings go.
    process.emitWarning(`the sessions of ${typeof graph === 'string' ? graph : 'the model'} do not share packed weights (${pool.weights.kind === 'mapped' ? 'they map them unpacked: slower runs' : 'each packs its own copy'}): ${pool.weights.reason}`, { code: 'INFERKIT_PACKED_COPY' });
  }
  return pool;
}
