import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { buildBertTokenClassifier, type BertTokenClassifierOptions } from './bert-token-classifier.js';
import { bertTokenizerJson, type JsonValue } from './bert-tokenizer-json.js';
import { chronosBoltLikeGraph, ruleForecasterGraph } from './chronos-bolt.js';
import { BERT_SPECIAL_TOKENS, CONLL_LABELS, nerFixtureLabelTable, nerFixtureVocab } from './ner-fixture-vocab.js';

/** Options of {@link writeTokenClassifierRepo}. */
export interface TokenClassifierRepoOptions {
  /** WordPiece vocabulary, index = id (must hold [PAD], [UNK], [CLS], [SEP], [MASK]). */
  vocab: readonly string[];
  /** Lower-case input (`do_lower_case`, BertNormalizer `lowercase`). @default true */
  lowercase?: boolean;
  /** Label names, index = id. @default CONLL_LABELS (dslim/bert-base-NER order) */
  labels?: readonly string[];
  /** Graph options; `vocabSize` and `numLabels` come from `vocab` and `labels`. @default { layers: 2, hidden: 32, heads: 2 } */
  model?: Omit<BertTokenClassifierOptions, 'vocabSize' | 'numLabels'>;
}

/**
 * Writes a hub-style token-classification repo into `dir` (replacing it): `config.json`
 * (BertForTokenClassification, id2label/label2id), `tokenizer.json`, `vocab.txt`,
 * `tokenizer_config.json`, `special_tokens_map.json` and `onnx/model.onnx`. Files go to
 * `<dir>.incomplete` first, which is then renamed. Returns the written paths, relative, sorted.
 */
export async function writeTokenClassifierRepo(dir: string, opts: TokenClassifierRepoOptions): Promise<string[]> {
  const lowercase = opts.lowercase ?? true;
  const labels = opts.labels ?? CONLL_LABELS;
  const model = { layers: 2, hidden: 32, heads: 2, ...opts.model };
  const maxPositions = model.maxPositions ?? 512;
  const hidden = model.hidden;
  const config = {
    architectures: ['BertForTokenClassification'],
    model_type: 'bert',
    vocab_size: opts.vocab.length,
    hidden_size: hidden,
    num_hidden_layers: model.layers,
    num_attention_heads: model.heads,
    intermediate_size: model.intermediate ?? 4 * hidden,
    hidden_act: 'gelu',
    max_position_embeddings: maxPositions,
    type_vocab_size: 2,
    layer_norm_eps: 1e-12,
    pad_token_id: 0,
    id2label: Object.fromEntries(labels.map((l, i) => [String(i), l])),
    label2id: Object.fromEntries(labels.map((l, i) => [l, i])),
  };
  const specials = {
    unk_token: BERT_SPECIAL_TOKENS.unk,
    sep_token: BERT_SPECIAL_TOKENS.sep,
    pad_token: BERT_SPECIAL_TOKENS.pad,
    cls_token: BERT_SPECIAL_TOKENS.cls,
    mask_token: BERT_SPECIAL_TOKENS.mask,
  };
  const tokenizerConfig = {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: lowercase,
    model_max_length: maxPositions,
    strip_accents: null,
    tokenize_chinese_chars: true,
    ...specials,
  };
  const onnx = buildBertTokenClassifier({ ...model, vocabSize: opts.vocab.length, numLabels: labels.length });
  return writeRepoAtomically(dir, {
    'config.json': json(config),
    'tokenizer.json': json(bertTokenizerJson({ vocab: opts.vocab, lowercase })),
    'vocab.txt': `${opts.vocab.join('\n')}\n`,
    'tokenizer_config.json': json(tokenizerConfig),
    'special_tokens_map.json': json(specials),
    'onnx/model.onnx': onnx,
  });
}

/** Options of {@link writeNerFixtureRepo}. */
export interface NerFixtureRepoOptions {
  /** Lower-case vocabulary and normaliser; `false` adds capitalised tokens (`Paris` and `paris`). @default true */
  lowercase?: boolean;
  /**
   * `'none'`: layers 0, logits exactly the label table (10 at the label, 0 elsewhere).
   * `'random'`: a real random encoder (2 layers, hidden 32, 2 heads) whose small logits are added
   * to the table, for shape/masking tests (labels still follow the table). @default 'none'
   */
  encoder?: 'none' | 'random';
  /** Random-weight seed. @default 0 */
  seed?: number;
}

/**
 * Writes the "known words" NER fixture repo: {@link nerFixtureVocab} + {@link nerFixtureLabelTable},
 * so the entity words in `NER_FIXTURE_ENTITIES` get their labels and every other token `O`.
 */
export async function writeNerFixtureRepo(dir: string, opts: NerFixtureRepoOptions = {}): Promise<string[]> {
  const lowercase = opts.lowercase ?? true;
  const vocab = nerFixtureVocab(lowercase);
  const labelTable = nerFixtureLabelTable(vocab);
  const shape = opts.encoder === 'random' ? { layers: 2, hidden: 32, heads: 2 } : { layers: 0, hidden: 32, heads: 2 };
  return writeTokenClassifierRepo(dir, { vocab, lowercase, model: { ...shape, seed: opts.seed ?? 0, labelTable } });
}

/** Options of {@link writeChronosFixtureRepo}. */
export interface ChronosFixtureRepoOptions {
  /** `'rule'` = {@link buildRuleForecaster} (exact numbers), `'bolt-like'` = random transformer. @default 'rule' */
  kind?: 'rule' | 'bolt-like';
  /** `chronos_config.context_length`. @default 64 */
  contextLength?: number;
  /** `chronos_config.prediction_length`. @default 8 */
  predictionLength?: number;
  /** @default [0.1, 0.2, …, 0.9] */
  quantiles?: readonly number[];
  /** `chronos_config.input_patch_size`. @default 16 */
  patchSize?: number;
  /** Rule kind: per-quantile offsets. @default (q - 0.5) * 10 */
  offsets?: readonly number[];
  /** Rule kind: per-step trend. @default 0 */
  trend?: number;
  /** Bolt-like kind: width, layers, heads, FFN size, seed. @default 64, 2, 4, 256, 0 */
  dModel?: number;
  layers?: number;
  heads?: number;
  dFF?: number;
  seed?: number;
  /**
   * Keep the weights (initializers of ≥ 1 KiB) in `onnx/model.onnx.data` beside the graph, as
   * `torch.onnx.export(..., dynamo=True)` writes real Chronos-Bolt exports. @default false
   */
  externalData?: boolean;
}

/**
 * The smallest bolt-like graph that exercises every part of the Chronos-Bolt path (patching, one encoder
 * layer, the quantile head) in milliseconds: what the tests of replicas and loading share.
 */
export const TINY_BOLT_LIKE: Readonly<ChronosFixtureRepoOptions> = { kind: 'bolt-like', contextLength: 64, predictionLength: 4, patchSize: 8, dModel: 16, heads: 2, layers: 1 };

/**
 * Writes a Chronos-Bolt-style forecasting repo into `dir` (replacing it): `config.json` with
 * `chronos_config` and `onnx/model.onnx` (plus `onnx/model.onnx.data` with `externalData`). Returns the written paths, relative, sorted.
 */
export async function writeChronosFixtureRepo(dir: string, opts: ChronosFixtureRepoOptions = {}): Promise<string[]> {
  const kind = opts.kind ?? 'rule';
  const contextLength = opts.contextLength ?? 64;
  const predictionLength = opts.predictionLength ?? 8;
  const quantiles = opts.quantiles ?? [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
  const patchSize = opts.patchSize ?? 16;
  const dModel = opts.dModel ?? 64;
  const layers = opts.layers ?? 2;
  const heads = opts.heads ?? 4;
  const dFF = opts.dFF ?? 4 * dModel;
  const graph =
    kind === 'rule'
      ? ruleForecasterGraph({ predictionLength, quantiles, offsets: opts.offsets, trend: opts.trend })
      : chronosBoltLikeGraph({ contextLength, predictionLength, quantiles, patchSize, dModel, layers, heads, dFF, seed: opts.seed });
  const onnx: Record<string, Uint8Array> = {};
  if (opts.externalData) {
    const { model, data } = graph.toExternalData('model.onnx.data');
    onnx['onnx/model.onnx'] = model;
    onnx['onnx/model.onnx.data'] = data;
  } else {
    onnx['onnx/model.onnx'] = graph.toBytes();
  }
  const config = {
    architectures: ['ChronosBoltModelForForecasting'],
    model_type: 't5',
    chronos_pipeline_class: 'ChronosBoltPipeline',
    chronos_config: {
      context_length: contextLength,
      prediction_length: predictionLength,
      quantiles: [...quantiles],
      input_patch_size: patchSize,
      input_patch_stride: patchSize,
      use_reg_token: false,
    },
    d_model: dModel,
    num_layers: layers,
    num_heads: heads,
    d_ff: dFF,
    inferkit_fixture: kind,
  };
  return writeRepoAtomically(dir, { 'config.json': json(config), ...onnx });
}

function json(value: { [key: string]: JsonValue }): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Writes `files` under `<dir>.incomplete`, then replaces `dir` with it by rename. */
async function writeRepoAtomically(dir: string, files: Record<string, string | Uint8Array>): Promise<string[]> {
  const staging = `${dir}.incomplete`;
  await rm(staging, { recursive: true, force: true });
  for (const [path, content] of Object.entries(files)) {
    const target = join(staging, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
  await rm(dir, { recursive: true, force: true });
  await rename(staging, dir);
  return Object.keys(files).sort();
}
