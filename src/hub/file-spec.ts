import { InferkitError } from '../errors.js';

/**
 * Which files of a model repo are wanted. Paths are repo-relative with `/` separators.
 * A `oneOf` group takes its first member that exists (order = preference).
 */
export interface FileSpec {
  /** Files that must exist. */
  required?: readonly string[];
  /** Groups of alternatives; the first existing path of each group is taken, and one must exist. */
  oneOf?: readonly (readonly string[])[];
  /** Taken when present, skipped silently otherwise. */
  optional?: readonly string[];
  /** Files a chosen path needs beside it (`vocab.json` → `merges.txt`): required once that path is chosen, never fetched otherwise. */
  companions?: Readonly<Record<string, readonly string[]>>;
}

/** Options of {@link tokenClassificationFiles}. */
export interface TokenClassificationFilesOptions {
  /** Fetch `onnx/model_quantized.onnx` (else the checkpoint, built as int8) instead of the full-precision graph. @default false */
  quantized?: boolean;
}

/**
 * A checkpoint's weight files as transformers saves them, in the order it prefers them: `model.safetensors`, the sharded
 * `model.safetensors.index.json`, else PyTorch's `pytorch_model.bin` and its sharded `pytorch_model.bin.index.json`
 * (older hub checkpoints publish only these). An index's shards are fetched by `resolveModelGraph`.
 */
export const CHECKPOINT_WEIGHT_FILES = ['model.safetensors', 'model.safetensors.index.json', 'pytorch_model.bin', 'pytorch_model.bin.index.json'] as const;

/** Published token-classification graphs, in preference order (`onnx/model.onnx`, else `model.onnx`). */
export const TOKEN_CLASSIFICATION_GRAPHS = ['onnx/model.onnx', 'model.onnx'] as const;
/** The published int8 graph that `quantized` asks for. */
export const TOKEN_CLASSIFICATION_QUANTIZED_GRAPHS = ['onnx/model_quantized.onnx'] as const;

/** DeBERTa-v2/v3's SentencePiece model, read when a repo has neither tokenizer.json nor vocab.txt (microsoft/deberta-v3-base ships only it). */
export const SPM_MODEL_FILE = 'spm.model';
/** XLM-RoBERTa's and CamemBERT's SentencePiece model (transformers' XLMRobertaTokenizer's and CamembertTokenizer's `vocab_file`), read when a repo has neither tokenizer.json nor vocab.txt. */
export const XLMR_SPM_MODEL_FILE = 'sentencepiece.bpe.model';
/** The SentencePiece model files inferkit reads (each family its own; see src/runtime/token-classification/sentencepiece/). */
export const SENTENCEPIECE_MODEL_FILES = [SPM_MODEL_FILE, XLMR_SPM_MODEL_FILE] as const;

/** RoBERTa's byte-level BPE vocabulary and its merges (transformers' RobertaTokenizer's `vocab_file` and `merges_file`), read when a repo has no tokenizer.json. */
export const BPE_VOCAB_FILE = 'vocab.json';
export const BPE_MERGES_FILE = 'merges.txt';

/** The added tokens a repo without tokenizer.json lists (content → id), as transformers saved them before tokenizer_config.json's `added_tokens_decoder`. */
export const ADDED_TOKENS_FILE = 'added_tokens.json';

/**
 * A token-classification repo's tokenizer, in preference order: tokenizer.json, BERT's vocab.txt, DeBERTa-v2/v3's
 * spm.model, XLM-R's sentencepiece.bpe.model, RoBERTa's vocab.json (with merges.txt beside it: TOKENIZER_COMPANIONS).
 */
export const TOKENIZER_FILES = ['tokenizer.json', 'vocab.txt', ...SENTENCEPIECE_MODEL_FILES, BPE_VOCAB_FILE] as const;
/** The tokenizer files that need another beside them. */
export const TOKENIZER_COMPANIONS: Readonly<Record<string, readonly string[]>> = { [BPE_VOCAB_FILE]: [BPE_MERGES_FILE] };

/**
 * The files of a token-classification repo besides its weights (config, tokenizer, tokenizer config): what
 * `resolveModelGraph` fetches whichever weights it takes (a published graph or the safetensors checkpoint).
 */
export const TOKEN_CLASSIFICATION_SIDE_FILES: FileSpec = {
  required: ['config.json'],
  oneOf: [TOKENIZER_FILES],
  optional: ['tokenizer_config.json', 'special_tokens_map.json', ADDED_TOKENS_FILE],
  companions: TOKENIZER_COMPANIONS,
};

/**
 * Files of a token-classification repo: `config.json`; `tokenizer.json`, else `vocab.txt`, else `spm.model`, else
 * `sentencepiece.bpe.model`, else `vocab.json` with `merges.txt`;
 * `onnx/model.onnx` or `model.onnx`, else the checkpoint inferkit builds the graph from
 * (`model.safetensors`, else `pytorch_model.bin`, each single or sharded with an `.index.json` whose shards
 * `resolveModelGraph` fetches) — or,
 * with `quantized: true`, `onnx/model_quantized.onnx` else the checkpoint (the full graph is not downloaded);
 * optional tokenizer config and special tokens map.
 */
export function tokenClassificationFiles(options: TokenClassificationFilesOptions = {}): FileSpec {
  const graphs = options.quantized ? TOKEN_CLASSIFICATION_QUANTIZED_GRAPHS : TOKEN_CLASSIFICATION_GRAPHS;
  return {
    required: ['config.json'],
    oneOf: [TOKENIZER_FILES, [...graphs, ...CHECKPOINT_WEIGHT_FILES]],
    optional: ['tokenizer_config.json', 'special_tokens_map.json', ADDED_TOKENS_FILE],
    companions: TOKENIZER_COMPANIONS,
  };
}

/** {@link tokenClassificationFiles} without the quantized model. */
export const TOKEN_CLASSIFICATION_FILES: FileSpec = tokenClassificationFiles();

/** The ONNX graphs a forecasting repo may publish, in preference order. */
export const FORECAST_ONNX_GRAPHS = ['onnx/model.onnx', 'model.onnx'] as const;
/** The files of a forecasting repo besides its weights: what `resolveModelGraph` fetches whichever weights it takes. */
export const FORECAST_SIDE_FILES: FileSpec = { required: ['config.json'] };

/**
 * Files of a forecasting repo: `config.json` and its weights — an ONNX graph (`onnx/model.onnx` or
 * `model.onnx`), else the checkpoint as its authors publish it (`model.safetensors`, else `pytorch_model.bin`, each
 * single or sharded with an `.index.json`), from which inferkit builds the graph.
 */
export const FORECAST_FILES: FileSpec = {
  required: ['config.json'],
  oneOf: [[...FORECAST_ONNX_GRAPHS, ...CHECKPOINT_WEIGHT_FILES]],
};

/** What {@link selectFiles} chose, and what it could not find (described for error messages). */
export interface FileSelection {
  /** Repo paths to fetch, in spec order, without duplicates. */
  chosen: string[];
  /** One entry per unmet requirement: a path, or `one of (a, b)`. */
  missing: string[];
}

/** Every path a spec may ask for (for one `paths-info` call). */
export function candidatePaths(spec: FileSpec): string[] {
  const all = [...(spec.required ?? []), ...(spec.oneOf ?? []).flat(), ...(spec.optional ?? []), ...Object.values(spec.companions ?? {}).flat()];
  return [...new Set(all)];
}

/** Applies a spec to the set of paths that exist (remote listing or local folder). */
export function selectFiles(spec: FileSpec, exists: (path: string) => boolean): FileSelection {
  const chosen = new Set<string>();
  const missing: string[] = [];
  for (const p of spec.required ?? []) {
    if (exists(p)) {
      chosen.add(p);
    }
    else {
      missing.push(p);
    }
  }
  for (const group of spec.oneOf ?? []) {
    const hit = group.find((p) => exists(p));
    if (hit !== undefined) {
      chosen.add(hit);
    }
    else {
      missing.push(`one of (${group.join(', ')})`);
    }
  }
  for (const p of spec.optional ?? []) {
    if (exists(p)) {
      chosen.add(p);
    }
  }
  for (const p of [...chosen]) {
    for (const c of spec.companions !== undefined && Object.hasOwn(spec.companions, p) ? spec.companions[p] : []) {
      if (exists(c)) {
        chosen.add(c);
      } else {
        missing.push(`${c} (beside ${p})`);
      }
    }
  }
  return { chosen: [...chosen], missing };
}

/**
 * Throws unless `path` is a safe repo-relative path (no absolute path, no `..`, no backslash),
 * so that a spec or a server listing cannot write outside the cache folder.
 */
export function assertRepoPath(path: string): void {
  const parts = path.split('/');
  const bad =
    path.length === 0 ||
    path.startsWith('/') ||
    path.includes('\\') ||
    path.includes('\0') ||
    parts.some((s) => s === '' || s === '.' || s === '..');
  if (bad) {
    throw new InferkitError('invalid_request', `Unsafe file path in model repo: ${JSON.stringify(path)}`);
  }
}
