import * as ort from 'onnxruntime-node';
import { InferkitError } from '../errors.js';

/** The only importer of onnxruntime-node. Re-exported types keep the rest of src free of it. */
export type OrtSession = ort.InferenceSession;
/** An ONNX Runtime tensor. */
export type OrtTensor = ort.Tensor;
/** Feeds for `session.run`: input name → tensor. */
export type OrtFeeds = Record<string, ort.Tensor>;

/** Execution provider: `cpu` everywhere; `cuda` on machines with the CUDA EP libraries. */
export type ExecutionProvider = 'cpu' | 'cuda';

/** Session options inferkit exposes. */
export interface SessionOptions {
  /** Intra-op threads. @default 1 (two threads collapse when another process holds a core) */
  intraOpThreads?: number;
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
  const ep = options.executionProvider ?? 'cpu';
  const opts: ort.InferenceSession.SessionOptions = {
    executionProviders: [ep],
    intraOpNumThreads: options.intraOpThreads ?? 1,
    interOpNumThreads: options.interOpThreads ?? 1,
    graphOptimizationLevel: options.graphOptimizationLevel ?? 'all',
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

/** int64 tensor of `shape` over `data`. */
export function int64Tensor(data: BigInt64Array, shape: readonly number[]): OrtTensor {
  return new ort.Tensor('int64', data, shape);
}
