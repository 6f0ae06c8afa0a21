import * as ort from 'onnxruntime-node';
import { join } from 'node:path';
import { loadTokenClassifier } from '../../src/runtime/token-classification/load-token-classifier.js';
import type { TokenClassifier } from '../../src/runtime/token-classification/token-classifier.js';
import { loadTextTokenizer, type TextTokenizer } from '../../src/runtime/token-classification/load-text-tokenizer.js';
import { findTokenClassFiles, readJsonFile, TokenClassConfigSchema } from '../../src/runtime/token-classification/model-files.js';
import { benchVocab } from './bench-text.js';
import { loadTransformersTokenClassifier, type TransformersPeer } from './transformers-peer.js';

/** The three ways to run one token-classification repo, each with its own ONNX Runtime session. */
export interface TextContenders {
  /** Raw onnxruntime-node session (the limit). */
  raw: ort.InferenceSession;
  /** inferkit's in-kernel classifier. */
  classifier: TokenClassifier;
  /** transformers.js' pipeline, or why it is missing. */
  peer: TransformersPeer | undefined;
  peerReason?: string;
  /** Pre-tokenized feeds for `texts`: `[batch, longest]` int64 input_ids / attention_mask / token_type_ids, right-padded. */
  feeds(texts: readonly string[]): Record<string, ort.Tensor>;
  /**
   * Tokenizes `texts` now with the tokenizer inferkit loads for the repo (no offsets) and builds the
   * same right-padded tensors, fresh: the raw session fed this way is the end-to-end limit (tokenizing
   * and fresh tensors are work any pipeline does).
   */
  tokenizedFeeds(texts: readonly string[]): Promise<Record<string, ort.Tensor>>;
  dispose(): Promise<void>;
}

/** Options of {@link openTextContenders}. */
export interface TextContenderOptions {
  /** Intra-op threads of every session. @default 1 */
  threads?: number;
  /** Load transformers.js too. @default true */
  peer?: boolean;
  /**
   * Idle intra-op threads spin, for the raw session and inferkit's alike (ORT's own default is on;
   * inferkit's is off). @default false — the same session options on both sides
   */
  spinning?: boolean;
}

/**
 * Opens the raw session, inferkit's classifier and (optionally) transformers.js on the same repo,
 * all with the same thread count and graph optimisation. `feeds` tokenizes bench texts (whole
 * known words, see `benchText`) by vocabulary lookup: `[CLS] w… [SEP]`, the same ids inferkit's
 * WordPiece produces for them, so the raw run sees identical tensors.
 */
export async function openTextContenders(dir: string, options: TextContenderOptions = {}): Promise<TextContenders> {
  const threads = options.threads ?? 1;
  const raw = await ort.InferenceSession.create(join(dir, 'onnx', 'model.onnx'), {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionProviders: ['cpu'],
    extra: { session: { intra_op: { allow_spinning: options.spinning === true ? '1' : '0' } } },
  });
  const classifier = await loadTokenClassifier(dir, { modelName: 'bench', maxBatchSize: 64, session: { intraOpThreads: threads, spinning: options.spinning === true } });
  let peer: TransformersPeer | undefined;
  let peerReason: string | undefined;
  if (options.peer ?? true) {
    const loaded = await loadTransformersTokenClassifier(dir, { intraOpThreads: threads, aggregation: 'simple' });
    if ('peer' in loaded) {
      peer = loaded.peer;
    } else {
      peerReason = loaded.reason;
    }
  }
  const files = await findTokenClassFiles(dir);
  const tokenizer: TextTokenizer = await loadTextTokenizer(files, await readJsonFile(files.config, TokenClassConfigSchema));
  const index = new Map(benchVocab().map((t, i) => [t, i]));
  const unk = index.get('[UNK]') ?? 100;
  const feeds = (texts: readonly string[]): Record<string, ort.Tensor> => {
    const seqs = texts.map((t) => [101, ...t.toLowerCase().split(/\s+/).filter(Boolean).map((w) => index.get(w) ?? unk), 102]);
    return tensors(seqs);
  };
  const tensors = (seqs: readonly number[][]): Record<string, ort.Tensor> => {
    const width = Math.max(...seqs.map((s) => s.length));
    const ids = new BigInt64Array(seqs.length * width);
    const mask = new BigInt64Array(seqs.length * width);
    seqs.forEach((s, b) => s.forEach((id, t) => {
      ids[b * width + t] = BigInt(id);
      mask[b * width + t] = 1n;
    }));
    const shape = [seqs.length, width];
    return {
      input_ids: new ort.Tensor('int64', ids, shape),
      attention_mask: new ort.Tensor('int64', mask, shape),
      token_type_ids: new ort.Tensor('int64', new BigInt64Array(seqs.length * width), shape),
    };
  };
  return {
    raw,
    classifier,
    peer,
    peerReason,
    feeds,
    async tokenizedFeeds(texts) {
      const encoded = tokenizer.encodeSync?.(texts, false) ?? (await tokenizer.encode(texts, false));
      return tensors(encoded.map((e) => e.ids));
    },
    async dispose() {
      await raw.release();
      await classifier.dispose();
      await peer?.dispose();
    },
  };
}
