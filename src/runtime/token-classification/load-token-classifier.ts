import { basename } from 'node:path';
import { tokenClassificationFiles } from '../../hub/file-spec.js';
import { parseModelRef } from '../../hub/parse-model-ref.js';
import { resolveModel } from '../../hub/resolve-model.js';
import type { ResolvedModel, ResolveModelOptions } from '../../hub/types.js';
import { envCacheDir } from '../../config.js';
import { InferkitError } from '../../errors.js';
import { builtinModels } from '../builtin-models.js';
import { createSession, withMachineThreads, type OrtSession, type SessionOptions } from '../ort.js';
import { loadTextTokenizer } from './load-text-tokenizer.js';
import { findTokenClassFiles, labelNames, readJsonFile, TokenClassConfigSchema } from './model-files.js';
import { tokenFeeds } from './run-token-logits.js';
import { TokenClassifier } from './token-classifier.js';

/** What a replica pool's latency session is timed on at load (a sentence of about 20 tokens). */
const LATENCY_PROBE_TEXT = 'The committee met in the capital on Tuesday to discuss the new budget for schools and hospitals.';

/** Default texts per ONNX Runtime run (see {@link TokenClassifierOptions.maxBatchSize}). */
export const DEFAULT_RUN_BATCH = 8;

/** Options of {@link loadTokenClassifier}; hub options apply when `source` is a hub id. */
export interface TokenClassifierOptions extends Partial<Omit<ResolveModelOptions, 'files'>> {
  /** Name the model answers to (`--model_name`). @default the hub id (`org/name`) of a hub source, else the folder's name */
  modelName?: string;
  /** `true` keeps case (`--disable_lower_case`); `false` forces lower-casing; unset: tokenizer_config, then lower-case. */
  disableLowerCase?: boolean;
  /** Max tokens per text incl. specials (`--max_length`). @default tokenizer_config model_max_length, else max_position_embeddings */
  maxLength?: number;
  /**
   * Texts per ONNX Runtime run (a request or merged batch of more runs as several, sorted by length).
   * @default 8 — on BERT-base (bench/server-limit.ts, texts of 8–22 tokens sorted by length) batches of 8
   * beat batches of 32 by 1.26× fp32 and 1.08× int8: less padding, same per-run overhead.
   */
  maxBatchSize?: number;
  /** Batch texts of similar length together within a request (less padding). @default true */
  sortByLength?: boolean;
  /** Threads, execution provider, graph optimisation. @default one session in this thread with every CPU the process may use (`availableCpus()`), spinning off, cpu */
  session?: SessionOptions;
  /**
   * Run `onnx/model_quantized.onnx` instead of `onnx/model.onnx` (from the hub only that graph is
   * fetched). A repo without it fails naming the file — `model_not_found` from the hub,
   * `model_load_failed` for a local folder; there is no silent fallback.
   * @default false
   */
  quantized?: boolean;
  /** V1 entries become per-token `{class id: softmax probability (4 decimals)}` lists (`--return_probabilities`). @default false */
  returnProbabilities?: boolean;
  /** V1 entries become per-token `{class id: raw logit}` lists (`--return_raw_logits`); wins over `returnProbabilities`, as in KServe. @default false */
  returnRawLogits?: boolean;
  /** No `[CLS]`/`[SEP]` around each text (`--disable_special_tokens`). @default false */
  disableSpecialTokens?: boolean;
  /**
   * Answers carry each token's `[start, end)` span in code points (`--return_offsets_mapping`): V2 a
   * second output `offset_mapping` (INT64 `[N, T, 2]`), V1 a top-level `outputs` list with it. @default false
   */
  returnOffsetsMapping?: boolean;
  /** `tokenizers` keeps the native Hugging Face tokenizer even where inferkit's synchronous BERT WordPiece would do. @default 'auto' */
  tokenizerEngine?: 'auto' | 'tokenizers';
}

/** A local folder, a hub id (`org/name[@rev]`, `hf://org/name`), or a `resolveModel` result. */
export type TokenClassifierSource = string | Pick<ResolvedModel, 'dir'> & Partial<Pick<ResolvedModel, 'files'>>;

/**
 * Loads a token-classification model (config.json `id2label`, tokenizer.json or vocab.txt,
 * onnx/model.onnx or model.onnx, or with `quantized` onnx/model_quantized.onnx) into one ONNX Runtime session and one tokenizer. A hub id is
 * resolved with `resolveModel` into `cacheDir` (default: the one model cache, `INFERKIT_CACHE`; spread
 * `hubOptionsFromEnv()` for the token and offline mode too). `inferkit/ner-fixture` is the built-in offline
 * fixture the server also knows, generated into that cache on first use (cased with `disableLowerCase: true`).
 * Every option may be left out: `loadTokenClassifier('inferkit/ner-fixture')`.
 * Errors: `model_load_failed` (files missing or unreadable, unexpected graph), `config` (bad options, cuda absent), hub errors.
 */
export async function loadTokenClassifier(source: TokenClassifierSource, options: TokenClassifierOptions = {}): Promise<TokenClassifier> {
  const maxBatchSize = options.maxBatchSize ?? DEFAULT_RUN_BATCH;
  if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) {
    throw new InferkitError('config', `maxBatchSize must be a positive integer, got ${maxBatchSize}`);
  }
  const where = await locate(source, options);
  const quantized = options.quantized ?? false;
  const files = await findTokenClassFiles(where.dir, where.files, { quantized });
  const config = await readJsonFile(files.config, TokenClassConfigSchema);
  const tokenizer = await loadTextTokenizer(files, config, { ...options, addSpecialTokens: options.disableSpecialTokens !== true });
  const session = await createSession(files.model, withMachineThreads(options.session));
  try {
    const graph = describeGraph(session, files.model, config.id2label ? Object.keys(config.id2label).length : undefined);
    const labels = labelNames(config, graph.numLabels);
    const plan = { ...graph, maxBatchSize, sortByLength: options.sortByLength ?? true, padId: 0 };
    // A replica pool keeps its latency session only where it beats a replica on a sentence-sized run.
    let latencySession: Awaited<ReturnType<NonNullable<OrtSession['tuneLatency']>>>;
    if (session.tuneLatency) {
      const [probe] = await tokenizer.encode([LATENCY_PROBE_TEXT], false);
      latencySession = await session.tuneLatency(() => tokenFeeds([probe.ids], plan));
    }
    return new TokenClassifier({
      name: options.modelName ?? defaultModelName(source),
      session,
      tokenizer,
      plan,
      info: {
        modelFile: files.model,
        quantized,
        v1Output: options.returnRawLogits ? 'raw_logits' : options.returnProbabilities ? 'probabilities' : 'class_ids',
        labels,
        lowercase: tokenizer.lowercase,
        lowercaseSource: tokenizer.lowercaseSource,
        tokenizerEngine: tokenizer.engine,
        maxLength: tokenizer.maxLength,
        maxLengthSource: tokenizer.maxLengthSource,
        inputNames: [...session.inputNames],
        offsetsMapping: options.returnOffsetsMapping === true,
        ...(latencySession ? { latencySession } : {}),
      },
    });
  } catch (e) {
    await session.release();
    throw e;
  }
}

/** The name a classifier answers to without `modelName`: the hub id (`org/name`) of a hub source, else its folder's name. */
function defaultModelName(source: TokenClassifierSource): string {
  if (typeof source !== 'string') {
    return basename(source.dir);
  }
  const ref = parseModelRef(source);
  return ref.kind === 'hub' ? ref.repo : basename(ref.path);
}

async function locate(source: TokenClassifierSource, options: TokenClassifierOptions): Promise<{ dir: string; files?: Record<string, string> }> {
  if (typeof source !== 'string') {
    return source;
  }
  const o = options;
  const cacheDir = o.cacheDir ?? envCacheDir();
  const builtin = await builtinModels(cacheDir)(source, o.disableLowerCase === true);
  if (builtin !== undefined) {
    return { dir: builtin };
  }
  const ref = parseModelRef(source);
  if (ref.kind === 'local') {
    return { dir: ref.path };
  }
  const hub: ResolveModelOptions = {
    cacheDir,
    files: tokenClassificationFiles({ quantized: o.quantized ?? false }),
    ...{ revision: o.revision, accessToken: o.accessToken, hubUrl: o.hubUrl, offline: o.offline },
    ...{ onProgress: o.onProgress, fetch: o.fetch, signal: o.signal, retries: o.retries },
  };
  return resolveModel(source, hub);
}

/** Input/output names and label count of a BERT-style token classifier graph. */
function describeGraph(session: OrtSession, path: string, configLabels: number | undefined) {
  const inputs = session.inputNames;
  const known = ['input_ids', 'attention_mask', 'token_type_ids'];
  const unknown = inputs.filter((n) => !known.includes(n));
  if (!inputs.includes('input_ids') || !inputs.includes('attention_mask') || unknown.length > 0) {
    throw new InferkitError(
      'model_load_failed',
      `${path} has inputs [${inputs.join(', ')}]; expected input_ids, attention_mask and optionally token_type_ids`,
    );
  }
  const logitsName = session.outputNames.includes('logits') ? 'logits' : session.outputNames[0];
  const meta = session.outputMetadata.find((m) => m.name === logitsName);
  const last = meta?.isTensor ? meta.shape[meta.shape.length - 1] : undefined;
  const numLabels = typeof last === 'number' && last > 0 ? last : configLabels;
  if (logitsName === undefined || numLabels === undefined) {
    throw new InferkitError('model_load_failed', `${path}: cannot tell the number of labels (no id2label in config.json, dynamic logits shape)`);
  }
  return {
    inputIdsName: 'input_ids',
    attentionMaskName: 'attention_mask',
    tokenTypeIdsName: 'token_type_ids',
    tokenTypeIds: inputs.includes('token_type_ids'),
    logitsName,
    numLabels,
  };
}
