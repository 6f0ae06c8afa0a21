import { InferkitError } from '../errors.js';
import { OnnxGraphBuilder, attr } from './graph-builder.js';
import { createSeededRandom, randomNormalArray } from './random-weights.js';
import { additiveMask, feedForward, layerNorm, linear, multiHeadAttention, type BlockContext } from './transformer-blocks.js';

/** Options of {@link buildBertTokenClassifier}. BERT-base is `{ layers: 12, hidden: 768, heads: 12, intermediate: 3072, vocabSize: 30522 }`. */
export interface BertTokenClassifierOptions {
  /** Encoder layers; 0 = embeddings → classifier only. @default 2 */
  layers?: number;
  /** Hidden size; must be a multiple of `heads`. @default 32 */
  hidden?: number;
  /** Attention heads. @default 2 */
  heads?: number;
  /** FFN inner size. @default 4 * hidden */
  intermediate?: number;
  /** Vocabulary size (rows of the word embedding). */
  vocabSize: number;
  /** Output labels. @default 9 */
  numLabels?: number;
  /** Rows of the position embedding = longest accepted sequence. @default 512 */
  maxPositions?: number;
  /** Seed of the deterministic random weights. @default 0 */
  seed?: number;
  /** Standard deviation of the random weights. @default 0.02 */
  initStd?: number;
  /**
   * [vocabSize, numLabels] row-major logits added per token id. With `layers: 0` the output
   * is exactly `labelTable[input_id]` (no encoder, no classifier), so labels are known.
   */
  labelTable?: Float32Array;
  /**
   * Write the dynamically int8-quantized graph (what `onnx/model_quantized.onnx` holds on the hub,
   * from onnxruntime's `quantize_dynamic`): every weight MatMul int8, embeddings and LayerNorm float.
   * Same seed → the same weights as the float graph, quantized. @default false
   */
  quantize?: boolean;
}

/**
 * Builds a BERT-shaped token classifier as ONNX bytes (opset 17).
 * Inputs `input_ids`, `attention_mask`, `token_type_ids`: int64 [batch, sequence];
 * output `logits`: float32 [batch, sequence, numLabels].
 * Structure for layers > 0: word + position + token-type embeddings → LayerNorm → N × (multi-head
 * self-attention with additive mask `(1 - mask) * -1e4`, residual + LayerNorm, erf-GELU FFN,
 * residual + LayerNorm) → classifier MatMul + bias (+ `labelTable[input_id]` if given).
 * Weights are random normal * `initStd`, biases 0, LayerNorm gamma 1. Sequence ≤ `maxPositions`.
 */
export function buildBertTokenClassifier(opts: BertTokenClassifierOptions): Uint8Array {
  const layers = opts.layers ?? 2;
  const hidden = opts.hidden ?? 32;
  const heads = opts.heads ?? 2;
  const intermediate = opts.intermediate ?? 4 * hidden;
  const numLabels = opts.numLabels ?? 9;
  const maxPositions = opts.maxPositions ?? 512;
  const { vocabSize, labelTable } = opts;
  checkOptions(layers, hidden, heads, vocabSize, numLabels, labelTable);

  const g = new OnnxGraphBuilder({ name: 'bert_token_classifier' });
  const ids = g.input('input_ids', 'int64', ['batch', 'sequence']);
  const maskIn = g.input('attention_mask', 'int64', ['batch', 'sequence']);
  const typeIds = g.input('token_type_ids', 'int64', ['batch', 'sequence']);
  const table = labelTable ? g.float32('label_table', labelTable, [vocabSize, numLabels]) : undefined;

  if (layers === 0 && table !== undefined) {
    g.op('Gather', [table, ids], { axis: attr.int(0) }, 'logits');
    g.output('logits', 'float32', ['batch', 'sequence', numLabels]);
    return g.toBytes();
  }

  const ctx: BlockContext = { g, random: createSeededRandom(opts.seed ?? 0), std: opts.initStd ?? 0.02, quantize: opts.quantize === true };
  const embedding = (name: string, rows: number): string =>
    g.float32(name, randomNormalArray(ctx.random, rows * hidden, ctx.std), [rows, hidden]);
  const wordEmb = embedding('embeddings.word_embeddings', vocabSize);
  const posEmb = embedding('embeddings.position_embeddings', maxPositions);
  const typeEmb = embedding('embeddings.token_type_embeddings', 2);

  const seqLen = g.op('Shape', [ids], { start: attr.int(1), end: attr.int(2) });
  const positions = g.op('Slice', [posEmb, g.int64Vector([0]), seqLen, g.int64Vector([0])]);
  const words = g.op('Gather', [wordEmb, ids], { axis: attr.int(0) });
  const types = g.op('Gather', [typeEmb, typeIds], { axis: attr.int(0) });
  const summed = g.op('Add', [g.op('Add', [words, types]), positions]);
  let x = layerNorm(ctx, summed, hidden, 'embeddings.LayerNorm', 1e-12);

  const keep = g.op('Cast', [maskIn], { to: attr.int(1) });
  const mask = additiveMask(ctx, keep);
  for (let i = 0; i < layers; i++) {
    const p = `encoder.layer.${i}`;
    const attention = multiHeadAttention(ctx, x, mask, { hidden, heads }, `${p}.attention`);
    x = layerNorm(ctx, g.op('Add', [attention, x]), hidden, `${p}.attention.LayerNorm`, 1e-12);
    const ffn = feedForward(ctx, x, hidden, intermediate, 'gelu', p);
    x = layerNorm(ctx, g.op('Add', [ffn, x]), hidden, `${p}.output.LayerNorm`, 1e-12);
  }
  const classified = linear(ctx, x, hidden, numLabels, 'classifier');
  if (table === undefined) {
    g.op('Identity', [classified], {}, 'logits');
  } else {
    g.op('Add', [classified, g.op('Gather', [table, ids], { axis: attr.int(0) })], {}, 'logits');
  }
  g.output('logits', 'float32', ['batch', 'sequence', numLabels]);
  return g.toBytes();
}

function checkOptions(
  layers: number,
  hidden: number,
  heads: number,
  vocabSize: number,
  numLabels: number,
  labelTable: Float32Array | undefined,
): void {
  const positive = { hidden, heads, vocabSize, numLabels };
  for (const [name, v] of Object.entries(positive)) {
    if (!Number.isInteger(v) || v < 1) {
      throw new InferkitError('invalid_request', `buildBertTokenClassifier: ${name} must be a positive integer, got ${v}`);
    }
  }
  if (!Number.isInteger(layers) || layers < 0) {
    throw new InferkitError('invalid_request', `buildBertTokenClassifier: layers must be an integer ≥ 0, got ${layers}`);
  }
  if (hidden % heads !== 0) {
    throw new InferkitError('invalid_request', `buildBertTokenClassifier: hidden ${hidden} is not a multiple of heads ${heads}`);
  }
  if (labelTable && labelTable.length !== vocabSize * numLabels) {
    throw new InferkitError(
      'invalid_request',
      `buildBertTokenClassifier: labelTable has ${labelTable.length} values, expected vocabSize*numLabels = ${vocabSize * numLabels}`,
    );
  }
}
