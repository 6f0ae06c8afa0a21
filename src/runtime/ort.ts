import * as ort from 'onnxruntime-node';
import { InferkitError } from '../errors.js';
import { availableCpus } from './cpu-budget.js';
import { createWorkerSessionPool, type WorkerSessionPool } from './worker/session-pool.js';
import { createWorkerSession } from './worker/worker-session.js';

/** An ONNX Runtime tensor. */
export type OrtTensor = ort.Tensor;
/** Feeds for `session.run`: input name → tensor. */
export type OrtFeeds = Record<string, ort.Tensor>;
/** Shape and type of a graph input or output. */
export type OrtValueMetadata = ort.InferenceSession.ValueMetadata;

/** An output of `session.run`: element type (`float32`, `int64` …), dimensions and data. */
export interface OrtOutput {
  readonly type: string;
  readonly dims: readonly number[];
  readonly data: unknown;
}

/**
 * What inferkit needs of a session: an in-thread ONNX Runtime session or a {@link createSession}
 * `worker: true` proxy whose session lives in a worker thread. The only importer of
 * onnxruntime-node is this module (and the worker entry that runs it).
 */
export interface OrtSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  readonly outputMetadata: readonly OrtValueMetadata[];
  /** Runs the graph. A worker session transfers (detaches) the feeds' buffers when they are whole. */
  run(feeds: OrtFeeds): Promise<Record<string, OrtOutput>>;
  /** Frees the session (and stops its worker). */
  release(): Promise<void>;
  /** Runs that execute side by side (replicas); callers keep this many runs in flight. @default 1 */
  readonly parallelRuns?: number;
  /** Runs that would start at once (idle replicas, none queued); absent when the session cannot tell. */
  readonly idleRuns?: number;
  /** Keeps a replica pool's latency session only if it runs `feeds()` faster (see `WorkerSessionPool.tuneLatency`). */
  tuneLatency?(feeds: () => OrtFeeds): Promise<{ latencyMs: number; replicaMs: number; kept: boolean } | undefined>;
}

/**
 * A model loader's session options: one session without a thread count gets every CPU this process may
 * use (`availableCpus()`, cgroup quota included), not ORT's one thread; replicas and explicit counts are
 * kept. Spinning stays off unless asked, so a busy machine degrades gracefully.
 */
export function withMachineThreads(options: SessionOptions = {}): SessionOptions {
  const replicas = options.replicaThreads?.length ?? options.replicas ?? 1;
  if (options.intraOpThreads !== undefined || replicas > 1) {
    return options;
  }
  if (options.replicaThreads?.length === 1) {
    return { ...options, intraOpThreads: options.replicaThreads[0] };
  }
  return { ...options, intraOpThreads: availableCpus().cpus };
}

/** Execution provider: `cpu` everywhere; `cuda` on machines with the CUDA EP libraries. */
export type ExecutionProvider = 'cpu' | 'cuda';

/** Session options inferkit exposes. */
export interface SessionOptions {
  /** Intra-op threads. @default 1 (see `availableCpus()` for what the process may use) */
  intraOpThreads?: number;
  /**
   * Let idle intra-op threads spin (busy-wait) for work (ORT's `session.intra_op.allow_spinning`).
   * Spinning saves microseconds per operator on a quiet machine but collapses throughput when another
   * process holds a core; off, threads sleep and the session degrades gracefully. Only matters with
   * more than one intra-op thread.
   * @default false
   */
  spinning?: boolean;
  /**
   * Run the session in a worker thread: `run()` no longer blocks the event loop (timers, HTTP,
   * progress output keep going); tensors' buffers are transferred, not copied. A crashed worker
   * fails its runs with `inference_failed` and is restarted on the next run (a few times at most).
   * @default false (the server turns it on)
   */
  worker?: boolean;
  /**
   * With `worker`, this many copies of the session, each in its own worker thread with
   * `intraOpThreads` threads: runs go to an idle copy, so batches run side by side (see
   * {@link WorkerSessionPool}). More throughput per core than one session with more threads, for one
   * copy of the weights per replica and a slower batch-1 run.
   * @default 1
   */
  replicas?: number;
  /** With `worker`, one replica per entry with that many intra-op threads (wins over `replicas` and `intraOpThreads`); what the server plans. */
  replicaThreads?: readonly number[];
  /**
   * With several replicas, one more session with this many threads that takes a run only when every
   * replica is idle and nothing else waits: a lone request runs at the speed of one many-thread
   * session, a loaded pool on the replicas alone. One more copy of the weights. @default none
   */
  latencyThreads?: number;
  /** Inter-op threads. @default 1 */
  interOpThreads?: number;
  /** Execution provider. @default 'cpu' */
  executionProvider?: ExecutionProvider;
  /** Graph optimisation level. @default 'all' */
  graphOptimizationLevel?: 'disabled' | 'basic' | 'extended' | 'all';
}

/** Execution providers this onnxruntime-node build offers (lower case, e.g. `cpu`, `cuda`). */
export function availableExecutionProviders(): string[] {
  const list = (ort as unknown as { listSupportedBackends?: () => Array<{ name: string; bundled: boolean }> })
    .listSupportedBackends;
  if (typeof list === 'function') {
    return list().filter((b) => b.bundled).map((b) => b.name.toLowerCase());
  }
  return ['cpu'];
}

/**
 * Opens an ONNX Runtime session on a model file or its bytes. Throws `model_load_failed` with the
 * reason when the file cannot be loaded, and `config` when `cuda` is asked for but not available.
 */
export async function createSession(model: string | Uint8Array, options: SessionOptions = {}): Promise<OrtSession> {
  const replicas = options.replicaThreads?.length ?? options.replicas ?? 1;
  if (!Number.isInteger(replicas) || replicas < 1) {
    throw new InferkitError('config', `replicas must be a positive integer, got ${replicas}`, { param: 'replicas' });
  }
  if (replicas > 1 && options.worker !== true) {
    throw new InferkitError('config', 'replicas need worker: true (each replica is a worker thread)', { param: 'replicas' });
  }
  if (replicas > 1) {
    return createWorkerSessionPool(model, options, options.replicaThreads ?? Array.from({ length: replicas }, () => options.intraOpThreads ?? 1), options.latencyThreads);
  }
  if (options.worker === true) {
    const { replicaThreads, latencyThreads: _latency, ...one } = options;
    return createWorkerSession(model, replicaThreads?.length === 1 ? { ...one, intraOpThreads: replicaThreads[0] } : one);
  }
  return createLocalSession(model, options);
}

/** {@link createSession} in this thread (what the worker entry calls). */
export async function createLocalSession(model: string | Uint8Array, options: SessionOptions = {}): Promise<ort.InferenceSession> {
  const ep = options.executionProvider ?? 'cpu';
  const threads = options.intraOpThreads ?? 1;
  if (!Number.isInteger(threads) || threads < 1) {
    throw new InferkitError('config', `intraOpThreads must be a positive integer, got ${threads}`);
  }
  const opts: ort.InferenceSession.SessionOptions = {
    executionProviders: [ep],
    intraOpNumThreads: threads,
    interOpNumThreads: options.interOpThreads ?? 1,
    graphOptimizationLevel: options.graphOptimizationLevel ?? 'all',
    extra: { session: { intra_op: { allow_spinning: options.spinning === true ? '1' : '0' } } },
  };
  try {
    return typeof model === 'string'
      ? await ort.InferenceSession.create(model, opts)
      : await ort.InferenceSession.create(model, opts);
  } catch (cause) {
    if (ep === 'cuda') {
      throw new InferkitError(
        'config',
        `executionProvider "cuda" is not available here (${(cause as Error).message}); it needs onnxruntime-node's CUDA libraries (install without onnxruntime-node-install=skip) and an NVIDIA GPU — use "cpu"`,
        { cause },
      );
    }
    const where = typeof model === 'string' ? ` from ${model}` : '';
    throw new InferkitError('model_load_failed', `could not load the ONNX model${where}: ${(cause as Error).message}`, { cause });
  }
}

/** float32 tensor of `shape` over `data`. */
export function float32Tensor(data: Float32Array, shape: readonly number[]): OrtTensor {
  return new ort.Tensor('float32', data, shape);
}

/** A tensor of element type `type` (as `OrtOutput.type` names it) over `data`. */
export function tensorOf(type: string, data: unknown, shape: readonly number[]): OrtTensor {
  return new ort.Tensor(type as 'float32', data as Float32Array, shape);
}

/** int64 tensor of `shape` over `data`. */
export function int64Tensor(data: BigInt64Array, shape: readonly number[]): OrtTensor {
  return new ort.Tensor('int64', data, shape);
}
