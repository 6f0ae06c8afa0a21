import { basename } from 'node:path';
import { GRAPH_BUILDERS } from '../../checkpoint/builders.js';
import { modelGraphInfo, resolveModelGraph, type ResolvedModelGraph } from '../../checkpoint/resolve-model-graph.js';
import { CHECKPOINT_WEIGHT_FILES, TOKEN_CLASSIFICATION_GRAPHS, TOKEN_CLASSIFICATION_QUANTIZED_GRAPHS, TOKEN_CLASSIFICATION_SIDE_FILES } from '../../hub/file-spec.js';
import { parseModelRef } from '../../hub/parse-model-ref.js';
import type { ResolvedModel, ResolveModelOptions } from '../../hub/types.js';
import { envCacheDir } from '../../config.js';
import { InferkitError, isInferkitError } from '../../errors.js';
import { builtinModels } from '../builtin-models.js';
import { createSession, replicaCount, withCacheDir, withMachineThreads, type OrtSession, type SessionOptions } from '../ort.js';
import { enterMemoryPhase } from '../model-memory/measure-model-load.js';
import { loadTextTokenizer } from './load-text-tokenizer.js';
import { findTokenClassFiles, labelNames, readJsonFile, TokenClassConfigSchema, type TokenClassConfig } from './model-files.js';
import { PACKED_RUN_TEXTS, tokenFeeds } from './run-token-logits.js';
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
   * beat batches of 32 by 1.26× fp32 and 1.08× int8: less padding, same per-run overhead. A graph built from a
   * checkpoint packs its runs (`info.packsTexts`): with `sortByLength` they are cut at 512 tokens, 64 texts at most
   * (PACKED_RUN_TOKENS).
   */
  maxBatchSize?: number;
  /** Batch texts of similar length together within a request (less padding). @default true */
  sortByLength?: boolean;
  /** Threads, execution provider, graph optimisation. @default one session in this thread with every CPU the process may use (`availableCpus()`), spinning off, cpu */
  session?: SessionOptions;
  /**
   * Run `onnx/model_quantized.onnx` instead of `onnx/model.onnx` (from the hub only that graph is
   * fetched); a repo without it but with a safetensors checkpoint gets the int8 graph built from the
   * checkpoint (dynamic int8 MatMul weights). A repo with neither fails naming the files —
   * `model_not_found` from the hub, `model_load_failed` for a local folder; there is no silent fallback
   * to the full-precision graph.
   * @default false
   */
  quantized?: boolean;
  /**
   * Where the graph comes from: `auto` runs the repo's published ONNX graph when it has one, else builds
   * it from `config.json` + `model.safetensors` or `pytorch_model.bin` (BERT, DistilBERT, RoBERTa, XLM-RoBERTa,
   * CamemBERT, Electra, DeBERTa-v2/v3); `checkpoint` builds from the checkpoint even when an ONNX graph is
   * published (only the checkpoint's files are fetched). Built graphs are cached under `<cacheDir>/graphs/`. (`--graph_source`)
   * @default 'auto'
   */
  graphSource?: 'auto' | 'checkpoint';
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
  if (options.maxBatchSize !== undefined && (!Number.isInteger(options.maxBatchSize) || options.maxBatchSize < 1)) {
    throw new InferkitError('config', `maxBatchSize must be a positive integer, got ${options.maxBatchSize}`);
  }
  const sortByLength = options.sortByLength ?? true;
  const quantized = options.quantized ?? false;
  const where = await locate(source, options);
  const files = await findTokenClassFiles(where.resolved.dir, where.resolved.files, { graphPath: where.graphPath });
  // In a server's load: the files are here; the tokenizer and sessions count as this model's memory (model-memory/).
  await enterMemoryPhase(files.model);
  const config = await readJsonFile(files.config, TokenClassConfigSchema);
  const tokenizer = await loadTextTokenizer(files, tokenizerLimits(config), {
    ...options,
    addSpecialTokens: options.disableSpecialTokens !== true,
    ...(config.vocab_size !== undefined ? { embeddingRows: config.vocab_size } : {}),
  });
  // A graph built from the checkpoint packs a run's texts into rows (segments) instead of padding them: every run has
  // its own shape. A replica pool's sessions then keep no memory pattern per shape (SessionOptions.memoryPattern), so
  // that their arenas do not grow to hold the blocks of many shapes; one session keeps it (faster on short runs).
  const packsTexts = where.family !== undefined && GRAPH_BUILDERS[where.family]?.packsTexts === true;
  const sessionOptions = packsTexts && replicaCount(options.session) > 1 ? { memoryPattern: false, ...options.session } : options.session;
  const session = await createSession(files.model, withMachineThreads(withCacheDir(sessionOptions, options.cacheDir)));
  try {
    const graph = describeGraph(session, files.model, config.id2label ? Object.keys(config.id2label).length : undefined);
    const labels = labelNames(config, graph.numLabels);
    // Its queued runs are cut at PACKED_RUN_TOKENS; without the queue (sortByLength), runs keep DEFAULT_RUN_BATCH texts.
    const maxBatchSize = options.maxBatchSize ?? (packsTexts && sortByLength ? PACKED_RUN_TEXTS : DEFAULT_RUN_BATCH);
    const plan = { ...graph, maxBatchSize, sortByLength, padId: config.pad_token_id ?? 0, packsTexts };
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
        graph: modelGraphInfo(where),
        packsTexts,
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

/**
 * The repo's files and its graph (see {@link TokenClassifierOptions.graphSource}): `resolveModelGraph` with the
 * published graphs (`onnx/model_quantized.onnx` alone with `quantized`) or the checkpoint (int8 with
 * `quantized`). A local folder lacking them is `model_load_failed`, as a folder lacking any other file.
 */
async function locate(source: TokenClassifierSource, options: TokenClassifierOptions): Promise<ResolvedModelGraph> {
  const o = options;
  const cacheDir = o.cacheDir ?? envCacheDir();
  let ref: string;
  if (typeof source !== 'string') {
    ref = source.dir;
  } else {
    ref = (await builtinModels(cacheDir)(source, o.disableLowerCase === true)) ?? source;
  }
  const quantized = o.quantized ?? false;
  const local = typeof source !== 'string' || parseModelRef(ref).kind === 'local';
  try {
    return await resolveModelGraph(ref, {
      task: 'token-classification',
      onnxGraphs: quantized ? TOKEN_CLASSIFICATION_QUANTIZED_GRAPHS : TOKEN_CLASSIFICATION_GRAPHS,
      files: TOKEN_CLASSIFICATION_SIDE_FILES,
      preferCheckpoint: o.graphSource === 'checkpoint',
      variant: quantized ? 'int8' : 'fp32',
      cacheDir,
      ...{ revision: o.revision, accessToken: o.accessToken, hubUrl: o.hubUrl, offline: o.offline },
      ...{ onProgress: o.onProgress, fetch: o.fetch, signal: o.signal, retries: o.retries },
    });
  } catch (err) {
    if (local && isInferkitError(err) && err.code === 'model_not_found') {
      const graph = quantized ? `${TOKEN_CLASSIFICATION_QUANTIZED_GRAPHS.join(' or ')} (asked for by quantized: true; load without it for the full-precision graph)` : TOKEN_CLASSIFICATION_GRAPHS.join(' or ');
      const needs = `a token-classification folder holds config.json, tokenizer.json (or vocab.txt, spm.model, sentencepiece.bpe.model, vocab.json + merges.txt), and ${graph} or a checkpoint (${CHECKPOINT_WEIGHT_FILES.join(', ')})`;
      throw new InferkitError('model_load_failed', `${err.message} (${needs})`, { cause: err });
    }
    throw err;
  }
}

/**
 * config.json as the tokenizer's limits see it: RoBERTa-style models (positions counted from
 * `pad_token_id + 1`) hold `max_position_embeddings - pad_token_id - 1` tokens (512 of 514), so longer
 * texts are cut there instead of failing (KServe takes 514 and answers 500).
 */
function tokenizerLimits(config: TokenClassConfig): TokenClassConfig {
  const offset = ['roberta', 'xlm-roberta', 'camembert'].includes(config.model_type ?? '');
  const positions = config.max_position_embeddings;
  if (!offset || positions === undefined) {
    return config;
  }
  return { ...config, max_position_embeddings: positions - (config.pad_token_id ?? 1) - 1 };
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
