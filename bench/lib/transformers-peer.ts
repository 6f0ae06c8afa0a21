import type * as Transformers from '@huggingface/transformers';
import { basename, dirname } from 'node:path';

/** One token of transformers.js' token-classification output (aggregation "none"). */
export interface PeerToken {
  entity: string;
  score: number;
  index: number;
  word: string;
}

/** One grouped entity (aggregation "simple"). */
export interface PeerEntity {
  entity_group: string;
  score: number;
  word: string;
}

/** Options of {@link loadTransformersTokenClassifier}. */
export interface TransformersPeerOptions {
  /** ONNX Runtime intra-op threads, as inferkit's session gets. @default 1 */
  intraOpThreads?: number;
  /** Labels left out of the output (transformers.js' `ignore_labels`). @default ['O'] */
  ignoreLabels?: readonly string[];
  /** `none` (one record per token) or `simple` (grouped). @default 'none' */
  aggregation?: 'none' | 'simple';
}

/** transformers.js' `pipeline('token-classification')` on a local folder, behind a small typed surface. */
export interface TransformersPeer {
  /** The package version that loaded (e.g. `4.3.1`). */
  readonly version: string;
  /** Runs the pipeline on a batch of texts (one padded ONNX run, as transformers.js does). */
  classify(texts: readonly string[]): Promise<Array<PeerToken[] | PeerEntity[]>>;
  /** Releases the ONNX Runtime session. */
  dispose(): Promise<void>;
}

type PipelineFn = (texts: string[], options: { ignore_labels: string[]; aggregation_strategy: string }) => Promise<unknown>;

/**
 * Loads transformers.js' token-classification pipeline from a local hub-style folder, offline
 * (`allowRemoteModels = false`): it reads `config.json`, `tokenizer.json`, `tokenizer_config.json`
 * and `onnx/model.onnx` (dtype `fp32` → no file-name suffix), on the `cpu` device with the given
 * thread count. Returns `undefined` with a reason when the package is not installed or cannot load
 * the folder, so a benchmark can print "not available" and go on.
 */
export async function loadTransformersTokenClassifier(
  modelDir: string,
  options: TransformersPeerOptions = {},
): Promise<{ peer: TransformersPeer } | { reason: string }> {
  let mod: typeof Transformers;
  try {
    mod = await import('@huggingface/transformers');
  } catch (cause) {
    return { reason: `@huggingface/transformers is not installed (${(cause as Error).message.split('\n')[0]})` };
  }
  // transformers.js keeps its settings in one mutable global; a benchmark process owns it.
  mod.env.allowRemoteModels = false;
  mod.env.allowLocalModels = true;
  mod.env.localModelPath = dirname(modelDir);
  mod.env.useBrowserCache = false;
  mod.env.useFSCache = false;
  const threads = options.intraOpThreads ?? 1;
  let pipe: PipelineFn & { dispose?: () => Promise<void> };
  try {
    const created = await mod.pipeline('token-classification', basename(modelDir), {
      device: 'cpu',
      dtype: 'fp32',
      local_files_only: true,
      session_options: { intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all' },
    });
    pipe = created as unknown as PipelineFn & { dispose?: () => Promise<void> };
  } catch (cause) {
    return { reason: `transformers.js could not load ${modelDir}: ${(cause as Error).message.split('\n')[0]}` };
  }
  const ignore = [...(options.ignoreLabels ?? ['O'])];
  const aggregation = options.aggregation ?? 'none';
  return {
    peer: {
      version: mod.env.version,
      async classify(texts) {
        const out = await pipe([...texts], { ignore_labels: ignore, aggregation_strategy: aggregation });
        return out as Array<PeerToken[] | PeerEntity[]>;
      },
      async dispose() {
        await pipe.dispose?.();
      },
    },
  };
}
