import type { ModelGraphInfo } from '../../checkpoint/resolve-model-graph.js';
import type { CallOptions, Predictor } from '../../contract/predictor.js';
import type { V1PredictRequest, V1PredictResponse } from '../../contract/v1.js';
import type { V2InferRequest, V2InferResponse, V2ModelMetadata } from '../../contract/v2.js';
import { InferkitError } from '../../errors.js';
import type { OrtSession } from '../ort.js';
import { groupEntities, type AggregationStrategy, type Entity } from './group-entities.js';
import { offsetMappingTensor, textsFromV2Request, toV1Response, toV1ScoresResponse, toV2Response, tokenClassMetadata, type V1OutputKind } from './kserve-outputs.js';
import type { EncodedText, LowerCaseSource, MaxLengthSource, TextTokenizer, TokenizerEngine } from './load-text-tokenizer.js';
import { argmaxPerToken, runTokenLogits, softmaxPerToken, throwIfAborted, type BatchPlan } from './run-token-logits.js';

/** Class ids per token for each text, and which texts were cut at `maxLength`. */
export interface TokenIdsResult {
  /** Per text: argmax class id per token, `[CLS]`/`[SEP]` included, its own tokens only. */
  classIds: number[][];
  /** Per text: true when it was truncated. */
  truncated: boolean[];
}

/** Options of {@link TokenClassifier.predictTokenIds}. */
export interface TokenIdsOptions extends CallOptions {
  /**
   * Called as each ONNX Runtime run of the call ends, with the indices of `texts` it answered and
   * their class ids: a server answers those requests without waiting for the rest.
   */
  onClassIds?: (indices: readonly number[], classIds: readonly number[][]) => void;
}

/** Softmax probabilities per token for each text, and which texts were cut at `maxLength`. */
export interface TokenProbabilitiesResult {
  /** Per text, per token (`[CLS]`/`[SEP]` included, its own tokens only): probability per class id (sums to 1). */
  probabilities: number[][][];
  /** Per text: true when it was truncated. */
  truncated: boolean[];
}

/** Options of {@link TokenClassifier.classify}. */
export interface ClassifyOptions extends CallOptions {
  /** How tokens become entities. @default 'simple' */
  aggregation?: AggregationStrategy;
  /** Labels (or entity groups) left out. @default ['O'] */
  ignoreLabels?: readonly string[];
}

/** Entities found in one text. */
export interface ClassifiedText {
  entities: Entity[];
  /** True when the text was cut at `maxLength`: entities cover only its beginning. */
  truncated: boolean;
}

/** Running counters of a classifier. */
export interface TokenClassifierStats {
  /** Calls of predictTokenIds (also through V1/V2/classify). */
  calls: number;
  texts: number;
  /** Tokens fed to the model, specials included, padding excluded. */
  tokens: number;
  /** Texts cut at `maxLength`. */
  truncatedTexts: number;
}

/** What the model was loaded with and why (precedence is documented on `loadTextTokenizer`). */
export interface TokenClassifierInfo {
  /** The ONNX file the session runs. */
  modelFile: string;
  /** True when `modelFile` is int8: the repo's `onnx/model_quantized.onnx`, or the int8 graph built from its checkpoint (option `quantized`). */
  quantized: boolean;
  /**
   * Where the graph came from (see `graphSource`): `from: 'onnx'`, a graph the repo publishes (`file`: `onnx/model.onnx`),
   * or `from: 'checkpoint'`, built from the repo file `file` (`model.safetensors`, `pytorch_model.bin`, a shard index)
   * as `family` (`bert`, `distilbert`, `roberta`, `electra`, `deberta-v2`) and `variant`, in `buildMs` (`cached`: an
   * earlier load built it).
   */
  graph: ModelGraphInfo;
  /**
   * True when a run packs several texts into one row instead of padding each to the run's longest (graphs built from
   * a checkpoint read the attention mask as segment numbers; published ONNX graphs are padded).
   */
  packsTexts: boolean;
  /** What `predictV1` entries hold (options `returnProbabilities` / `returnRawLogits`). V2 always answers class ids. */
  v1Output: V1OutputKind;
  labels: readonly string[];
  lowercase: boolean;
  lowercaseSource: LowerCaseSource;
  /** Which tokenizer runs: inferkit's synchronous BERT `wordpiece`, or the native `tokenizers`. */
  tokenizerEngine: TokenizerEngine;
  maxLength: number;
  maxLengthSource: MaxLengthSource;
  /** Graph inputs, e.g. `input_ids`, `attention_mask`, `token_type_ids`. */
  inputNames: readonly string[];
  /** Answers carry `offset_mapping` (`--return_offsets_mapping`). */
  offsetsMapping?: boolean;
  /**
   * Session replicas with a latency session: whether it was kept after timing one sentence on it and
   * on a replica at load (kept only when at least 10% faster), and the two medians.
   */
  latencySession?: { kept: boolean; latencyMs: number; replicaMs: number };
}

/** Logits of some texts of a call (indices into its texts), as one run ends. */
type ChunkLogits = (indices: readonly number[], logits: readonly Float32Array[]) => void;

interface RunOutput {
  encoded: EncodedText[];
  logits: Float32Array[];
}

/** Internal parts a {@link TokenClassifier} is built from (see `loadTokenClassifier`). */
export interface TokenClassifierParts {
  name: string;
  session: OrtSession;
  tokenizer: TextTokenizer;
  plan: BatchPlan;
  info: TokenClassifierInfo;
}

/**
 * An in-kernel token-classification model: one ONNX Runtime session and one tokenizer, answering
 * KServe V1/V2 (`Predictor`) and, beyond, named entities with offsets. Release it with `dispose()`
 * or `await using`.
 */
export class TokenClassifier implements Predictor {
  /** Served model name (`--model_name`). */
  readonly name: string;
  /** Labels, lower-casing and limits in effect. */
  readonly info: TokenClassifierInfo;
  readonly #tokenizer: TextTokenizer;
  readonly #plan: BatchPlan;
  #session: OrtSession | undefined;
  readonly #stats: TokenClassifierStats = { calls: 0, texts: 0, tokens: 0, truncatedTexts: 0 };
  readonly #inFlight = new Set<Promise<unknown>>();

  /** Use `loadTokenClassifier`; this constructor takes already-loaded parts. */
  constructor(parts: TokenClassifierParts) {
    this.name = parts.name;
    this.info = parts.info;
    this.#tokenizer = parts.tokenizer;
    this.#plan = parts.plan;
    this.#session = parts.session;
  }

  /** A copy of the running counters. */
  stats(): TokenClassifierStats {
    return { ...this.#stats };
  }

  /** Argmax class ids per token for each text (batched, padded, masked). */
  async predictTokenIds(texts: readonly string[], options: TokenIdsOptions = {}): Promise<TokenIdsResult> {
    const n = this.#plan.numLabels;
    const onClassIds = options.onClassIds;
    const onLogits = onClassIds && ((indices: readonly number[], logits: readonly Float32Array[]) => onClassIds(indices, logits.map((l) => argmaxPerToken(l, n))));
    const { encoded, logits } = await this.#run(texts, false, options, onLogits);
    return { classIds: logits.map((l) => argmaxPerToken(l, n)), truncated: encoded.map((e) => e.truncated) };
  }

  /** Softmax probabilities per token and class for each text (what `--return_probabilities` returns, unrounded). */
  async predictProbabilities(texts: readonly string[], options: CallOptions = {}): Promise<TokenProbabilitiesResult> {
    const { encoded, logits } = await this.#run(texts, false, options);
    const n = this.#plan.numLabels;
    const probabilities = logits.map((l) => {
      const p = softmaxPerToken(l, n);
      const rows: number[][] = [];
      for (let base = 0; base < p.length; base += n) {
        rows.push(Array.from(p.subarray(base, base + n)));
      }
      return rows;
    });
    return { probabilities, truncated: encoded.map((e) => e.truncated) };
  }

  /** Entities per text with UTF-16 offsets into the original text (see `AggregationStrategy`). */
  async classify(texts: readonly string[], options: ClassifyOptions = {}): Promise<ClassifiedText[]> {
    const { encoded, logits } = await this.#run(texts, true, options ?? {});
    const aggregation = options.aggregation ?? 'simple';
    return encoded.map((e, i) => ({
      truncated: e.truncated,
      entities: groupEntities(
        { text: texts[i], probs: softmaxPerToken(logits[i], this.#plan.numLabels), offsets: e.offsets, wordIds: e.wordIds, labels: this.info.labels },
        aggregation,
        options.ignoreLabels,
      ),
    }));
  }

  /**
   * KServe V1 `:predict`: `{instances}` → `{predictions: [[[id, …]], …]}`; with `info.v1Output`
   * `probabilities` / `raw_logits` each entry is `[{"0": v, "1": v, …} per token]` instead.
   */
  async predictV1(request: V1PredictRequest, options: CallOptions = {}): Promise<V1PredictResponse> {
    const kind = this.info.v1Output;
    const withOffsets = this.info.offsetsMapping === true;
    const { encoded, logits } = await this.#run(request.instances, withOffsets, options);
    const n = this.#plan.numLabels;
    const out =
      kind === 'class_ids'
        ? toV1Response(logits.map((l) => argmaxPerToken(l, n)))
        : toV1ScoresResponse(kind === 'probabilities' ? logits.map((l) => softmaxPerToken(l, n)) : logits, n, kind);
    return withOffsets ? { ...out, outputs: [offsetMappingTensor(encoded)] } : out;
  }

  /** KServe V2 `/infer`: BYTES `[N]` texts → `output-0` INT64 `[N, 1, T]` (-1 past each text). */
  async inferV2(request: V2InferRequest, options?: CallOptions): Promise<V2InferResponse> {
    const texts = textsFromV2Request(request);
    if (this.info.offsetsMapping !== true) {
      return toV2Response(this.name, (await this.predictTokenIds(texts, options)).classIds, request.id);
    }
    const { encoded, logits } = await this.#run(texts, true, options ?? {});
    const out = toV2Response(this.name, logits.map((l) => argmaxPerToken(l, this.#plan.numLabels)), request.id);
    return { ...out, outputs: [...out.outputs, offsetMappingTensor(encoded)] };
  }

  /** True until disposed. */
  async ready(): Promise<boolean> {
    return this.#session !== undefined;
  }

  /** V2 model metadata with the protocol's real input and output tensors. */
  async metadata(): Promise<V2ModelMetadata> {
    return tokenClassMetadata(this.name, { labels: this.info.labels, maxLength: this.info.maxLength, lowercase: this.info.lowercase });
  }

  /** Waits for running calls, then releases the ONNX Runtime session; later calls fail with `model_not_ready`. Idempotent. */
  async dispose(): Promise<void> {
    const session = this.#session;
    this.#session = undefined;
    await Promise.allSettled([...this.#inFlight]);
    await session?.release();
  }

  /** `await using classifier = await loadTokenClassifier(…)`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }

  /** Milliseconds this classifier's worker threads spent on runs (summed over replicas); undefined in-thread or once disposed. */
  get busyMs(): number | undefined {
    return this.#session?.busyMs;
  }

  /** Whether concurrent calls share one run queue (length-sorted plans, see `runTokenLogits`): runs are formed from all their texts. */
  get sharesRunQueue(): boolean {
    return this.#plan.sortByLength;
  }

  #run(texts: readonly string[], details: boolean, options: CallOptions, onLogits?: ChunkLogits): Promise<RunOutput> {
    const session = this.#session;
    if (session === undefined) {
      return Promise.reject(new InferkitError('model_not_ready', `Model "${this.name}" has been disposed`));
    }
    // Tracked from the start (tokenizing included), so dispose() never frees a session a call will use.
    const running = this.#runOn(session, texts, details, options, onLogits);
    this.#inFlight.add(running);
    return running.finally(() => this.#inFlight.delete(running));
  }

  async #runOn(session: OrtSession, texts: readonly string[], details: boolean, options: CallOptions, onLogits?: ChunkLogits): Promise<RunOutput> {
    throwIfAborted(options.signal);
    // The synchronous tokenizer skips a promise hop; the native one runs on the libuv pool.
    const encoded = this.#tokenizer.encodeSync?.(texts, details) ?? (await this.#tokenizer.encode(texts, details));
    // Without special tokens an empty text has no tokens: its answer is empty, the model never sees it.
    const plan = this.#plan;
    const signal = options.signal;
    if (encoded.every((e) => e.ids.length > 0)) {
      const logits = await runTokenLogits(session, encoded.map((e) => e.ids), plan, { signal, onChunk: onLogits });
      this.#count(texts.length, encoded);
      return { encoded, logits };
    }
    const live = encoded.flatMap((e, i) => (e.ids.length > 0 ? [i] : []));
    const onChunk = onLogits && ((chunk: readonly number[], logits: readonly Float32Array[]) => onLogits(chunk.map((k) => live[k]), logits));
    const ran = await runTokenLogits(session, live.map((i) => encoded[i].ids), plan, { signal, onChunk });
    const logits: Float32Array[] = encoded.map(() => new Float32Array(0));
    live.forEach((i, k) => (logits[i] = ran[k]));
    this.#count(texts.length, encoded);
    return { encoded, logits };
  }

  #count(texts: number, encoded: readonly EncodedText[]): void {
    this.#stats.calls++;
    this.#stats.texts += texts;
    for (const e of encoded) {
      this.#stats.tokens += e.ids.length;
      if (e.truncated) {
        this.#stats.truncatedTexts++;
      }
    }
  }
}
