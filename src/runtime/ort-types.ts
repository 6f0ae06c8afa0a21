/**
 * The session types of inferkit's ONNX Runtime layer, apart from `ort.ts` so that the worker modules
 * `ort.ts` starts can name them without importing it back.
 */
import type * as ort from 'onnxruntime-node';

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
 * `worker: true` proxy whose session lives in a worker thread. Only `ort.ts` (and the worker entry
 * that runs it) loads onnxruntime-node; this module takes its types alone.
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
  /** Milliseconds the session's worker threads spent on runs so far (summed over replicas); absent for an in-thread session. */
  readonly busyMs?: number;
  /** Runs handed over that wait for a replica (or, in one worker, behind its running run); absent when the session cannot tell. */
  readonly queuedRuns?: number;
  /** Keeps a replica pool's latency session only if it runs `feeds()` faster (see `WorkerSessionPool.tuneLatency`). */
  tuneLatency?(feeds: () => OrtFeeds): Promise<{ latencyMs: number; replicaMs: number; kept: boolean } | undefined>;
}

/**
 * Execution provider: `cpu` everywhere; `webgpu` (bundled with onnxruntime-node; on Linux through Vulkan, so a GPU
 * driver with a Vulkan ICD and `libvulkan.so.1` — see docs/gpu.md); `cuda` on machines with the CUDA EP libraries.
 */
export type ExecutionProvider = 'cpu' | 'webgpu' | 'cuda';

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
   * `WorkerSessionPool`). More throughput per core than one session with more threads, for a
   * slower batch-1 run; the replicas share one packed copy of its weights, made once into the model cache
   * (memory-mapped; see `src/runtime/shared-weights/`).
   * @default 1
   */
  replicas?: number;
  /** With `worker`, one replica per entry with that many intra-op threads (wins over `replicas` and `intraOpThreads`); what the server plans. */
  replicaThreads?: readonly number[];
  /**
   * With several replicas, one more session with this many threads that takes a run only when every
   * replica is idle and nothing else waits: a lone request runs at the speed of one many-thread
   * session, a loaded pool on the replicas alone. @default none
   */
  latencyThreads?: number;
  /**
   * Let ORT prepack MatMul/Gemm weights at load (`session.disable_prepacking` when false): a private,
   * re-laid-out copy of them per session. Off, a session opened from a graph whose weights are external
   * data multiplies straight from ORT's memory-mapped file pages, which every session of the process
   * shares. Unset, the sessions of a replica pool map one packed copy instead (prepacked speed, one copy);
   * `true` gives each its own, `false` the unpacked mapping (see `src/runtime/shared-weights/`). @default true
   */
  prepacking?: boolean;
  /**
   * Let ORT plan each run's intermediate tensors as one block per input shape and keep that plan (ORT's memory
   * pattern). Off, they come one by one from the session's arena. Where every run has a shape of its own (a token
   * classifier's packed runs) the arena grows to hold the blocks of many shapes: `loadTokenClassifier` turns it off
   * for the replica pools of graphs built from a checkpoint, which the many-core plans run (see
   * `src/runtime/shared-weights/README.md`, "Memory on many cores"); one session keeps it, being faster with it on
   * short runs. @default true
   */
  memoryPattern?: boolean;
  /** Inter-op threads. @default 1 */
  interOpThreads?: number;
  /** Execution provider. @default 'cpu' */
  executionProvider?: ExecutionProvider;
  /** Graph optimisation level. @default 'all' */
  graphOptimizationLevel?: 'disabled' | 'basic' | 'extended' | 'all';
  /**
   * Where a worker session puts the copies it makes of its graph (`graphs/external-…` for inline weights, a pool's
   * `graphs/packed-…`). The loaders set it from their own `cacheDir`. @default the model cache (`envCacheDir()`)
   */
  cacheDir?: string;
}
