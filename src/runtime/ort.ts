import * as ort from 'onnxruntime-node';
import { InferkitError } from '../errors.js';
import { availableCpus } from './cpu-budget.js';
import { enterMemoryPhase } from './model-memory/measure-model-load.js';
import { createWorkerSessionPool } from './worker/session-pool.js';
import { createWorkerSession } from './worker/worker-session.js';
import type { OrtSession, OrtTensor, SessionOptions } from './ort-types.js';

export type { ExecutionProvider, OrtFeeds, OrtOutput, OrtSession, OrtTensor, OrtValueMetadata, SessionOptions } from './ort-types.js';

/**
 * onnxruntime-node's Linux build carries Microsoft's 1DS telemetry SDK (the library names a collector at
 * mobile.events.data.microsoft.com; once started, it leaves an empty `mat-debug-<pid>.log` in the temp folder
 * behind every process that opened a session). ONNX Runtime reads `ORT_DISABLE_TELEMETRY` when it makes its
 * environment, at the first session: inferkit sets it unless the user has, so a notebook or server starts none of
 * it and leaves nothing behind. Worker threads start with a copy of this environment. `ORT_DISABLE_TELEMETRY=0`
 * keeps ONNX Runtime's default.
 */
process.env.ORT_DISABLE_TELEMETRY ??= '1';

/** A loader's `session` options with the loader's `cacheDir` for the session's copies of its graph, unless they name their own. */
export function withCacheDir(session: SessionOptions | undefined, cacheDir: string | undefined): SessionOptions | undefined {
  return cacheDir === undefined || session?.cacheDir !== undefined ? session : { ...session, cacheDir };
}

/** The session replicas `options` ask for: one per `replicaThreads` entry, else `replicas`, else 1. */
export function replicaCount(options: SessionOptions = {}): number {
  return options.replicaThreads?.length ?? options.replicas ?? 1;
}

/**
 * A model loader's session options: one session without a thread count gets every CPU this process may
 * use (`availableCpus()`, cgroup quota included), not ORT's one thread; replicas and explicit counts are
 * kept. Spinning stays off unless asked, so a busy machine degrades gracefully.
 */
export function withMachineThreads(options: SessionOptions = {}): SessionOptions {
  const replicas = replicaCount(options);
  if (options.intraOpThreads !== undefined || replicas > 1) {
    return options;
  }
  if (options.replicaThreads?.length === 1) {
    return { ...options, intraOpThreads: options.replicaThreads[0] };
  }
  return { ...options, intraOpThreads: availableCpus().cpus };
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
  const replicas = replicaCount(options);
  if (!Number.isInteger(replicas) || replicas < 1) {
    throw new InferkitError('config', `replicas must be a positive integer, got ${replicas}`, { param: 'replicas' });
  }
  if (replicas > 1 && options.worker !== true) {
    throw new InferkitError('config', 'replicas need worker: true (each replica is a worker thread)', { param: 'replicas' });
  }
  // Within a server's model load: from here on, this model's memory is measured alone (model-memory/).
  await enterMemoryPhase(model);
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
    // CPU threads serve the CPU provider (and the few ops a GPU provider leaves on the CPU).
    intraOpNumThreads: threads,
    interOpNumThreads: options.interOpThreads ?? 1,
    graphOptimizationLevel: options.graphOptimizationLevel ?? 'all',
    ...(options.memoryPattern === false ? { enableMemPattern: false } : {}),
    extra: { session: { intra_op: { allow_spinning: options.spinning === true ? '1' : '0' }, ...(options.prepacking === false ? { disable_prepacking: '1' } : {}) } },
  };
  try {
    return typeof model === 'string'
      ? await ort.InferenceSession.create(model, opts)
      : await ort.InferenceSession.create(model, opts);
  } catch (cause) {
    if (ep === 'webgpu') {
      throw new InferkitError(
        'config',
        `executionProvider "webgpu" found no GPU adapter here (${firstLine(cause)}); on Linux it runs through Vulkan: it needs a GPU driver with a Vulkan ICD and libvulkan.so.1 (Debian: libvulkan1) — see docs/gpu.md, or use "cpu"`,
        { cause },
      );
    }
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

function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0].replace(/^.*?(Failed to get a WebGPU adapter)/, '$1').slice(0, 200);
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
