import { OnnxGraphBuilder, attr } from '../../../onnx/graph-builder.js';
import type { Checkpoint } from '../../safetensors.js';
import { activation, checkedShape, layerNorm, linear, weight, weightRow, type CheckpointOps } from './checkpoint-ops.js';
import { segmentInputs } from './segments.js';

/** Tensor-name prefixes (each Linear/LayerNorm without `.weight`) of one encoder layer. */
export interface EncoderLayerNames {
  query: string;
  key: string;
  value: string;
  attentionOutput: string;
  attentionNorm: string;
  up: string;
  down: string;
  outputNorm: string;
}

/** A BERT-shaped encoder + token classifier, as read from a checkpoint's config and tensor names. */
export interface EncoderSpec {
  /** Shown in errors (the checkpoint folder). */
  source: string;
  layers: number;
  hidden: number;
  heads: number;
  intermediate: number;
  /** LayerNorm epsilon (every norm). */
  epsilon: number;
  /** transformers' activation name (`gelu`, `relu`, …). */
  activation: string;
  vocabSize: number;
  /** Width of the embeddings; Electra's may be smaller than `hidden` (then `embeddingProjection` maps it up). */
  embeddingSize: number;
  word: string;
  position: string;
  /** Rows of the position table. */
  maxPositions: number;
  /**
   * `absolute`: position t is row t (BERT, DistilBERT, Electra). `offset`: RoBERTa's rule,
   * `cumsum(ids != padId) * (ids != padId) + padId` (the first token is row padId + 1, padding row padId).
   */
  positions: { kind: 'absolute' } | { kind: 'offset'; padId: number };
  /** Token-type table and its rows; with 2+ rows the graph takes `token_type_ids`, with 1 row it adds row 0. */
  tokenType?: { name: string; rows: number };
  embeddingNorm: string;
  /** Electra's `embeddings_project` Linear (embeddingSize → hidden). */
  embeddingProjection?: string;
  layer(i: number): EncoderLayerNames;
  /** The classifier Linear prefix (`classifier`). */
  classifier: string;
  numLabels: number;
}

/**
 * The token-classification graph of `spec`: int64 inputs `input_ids`, `attention_mask` (and
 * `token_type_ids` where the model has 2+ token types) `[batch, sequence]`; output `logits` float32
 * `[batch, sequence, numLabels]`. `attention_mask` may pack several texts in a row (segment numbers, see
 * segmentInputs). Weights are lazy initializers read from `ck` as the graph is written;
 * MatMul weights pre-transposed (int8 with `int8`). Opset 17: LayerNormalization, erf-GELU and Softmax on
 * the last axis, which ORT's CPU optimiser fuses.
 */
export function buildEncoderTokenClassifier(ck: Checkpoint, spec: EncoderSpec, int8: boolean): OnnxGraphBuilder {
  const g = new OnnxGraphBuilder({ name: 'token_classifier', producerName: 'inferkit-checkpoint' });
  const ops: CheckpointOps = { g, ck, int8 };
  const ids = g.input('input_ids', 'int64', ['batch', 'sequence']);
  const maskIn = g.input('attention_mask', 'int64', ['batch', 'sequence']);
  const { mask, positions } = segmentInputs(g, maskIn);
  let x = embeddings(ops, spec, ids, positions);
  if (spec.embeddingProjection !== undefined) {
    x = linear(ops, x, spec.embeddingProjection, spec.embeddingSize, spec.hidden);
  }
  for (let i = 0; i < spec.layers; i++) {
    const n = spec.layer(i);
    const attention = selfAttention(ops, spec, x, mask, n);
    x = layerNorm(ops, g.op('Add', [attention, x]), n.attentionNorm, spec.hidden, spec.epsilon);
    const up = activation(g, linear(ops, x, n.up, spec.hidden, spec.intermediate), spec.activation, spec.source);
    const down = linear(ops, up, n.down, spec.intermediate, spec.hidden);
    x = layerNorm(ops, g.op('Add', [down, x]), n.outputNorm, spec.hidden, spec.epsilon);
  }
  const logits = linear(ops, x, spec.classifier, spec.hidden, spec.numLabels);
  g.op('Identity', [logits], {}, 'logits');
  g.output('logits', 'float32', ['batch', 'sequence', spec.numLabels]);
  return g;
}

function embeddings(ops: CheckpointOps, spec: EncoderSpec, ids: string, segmentPositions: string): string {
  const { g } = ops;
  const e = spec.embeddingSize;
  const words = g.op('Gather', [weight(ops, spec.word, [spec.vocabSize, e]), ids], { axis: attr.int(0) });
  const posTable = weight(ops, spec.position, [spec.maxPositions, e]);
  // Padding of a packed row longer than the table counts past it: its rows are read clamped (their logits are dropped).
  let index = g.op('Min', [segmentPositions, g.int64Vector([spec.maxPositions - 1])]);
  if (spec.positions.kind === 'offset') {
    // RoBERTa's cumsum(ids != padId) · (ids != padId) + padId, counted inside each segment.
    const padId = spec.positions.padId;
    const notPad = g.op('Cast', [g.op('Not', [g.op('Equal', [ids, g.int64Vector([padId])])])], { to: attr.int(7) });
    index = g.op('Add', [g.op('Mul', [g.op('Add', [segmentPositions, g.int64Vector([1])]), notPad]), g.int64Vector([padId])]);
  }
  const positions = g.op('Gather', [posTable, index], { axis: attr.int(0) });
  let sum = g.op('Add', [words, positions]);
  if (spec.tokenType !== undefined) {
    const { name, rows } = spec.tokenType;
    if (rows > 1) {
      const typeIds = g.input('token_type_ids', 'int64', ['batch', 'sequence']);
      sum = g.op('Add', [sum, g.op('Gather', [weight(ops, name, [rows, e]), typeIds], { axis: attr.int(0) })]);
    } else {
      checkedShape(ops.ck, name, [rows, e]);
      sum = g.op('Add', [sum, weightRow(ops, name, rows, e, 0)]);
    }
  }
  return layerNorm(ops, sum, spec.embeddingNorm, e, spec.epsilon);
}

/** Multi-head self-attention with the additive mask `[batch, 1, seq, seq]`, then the output Linear. */
function selfAttention(ops: CheckpointOps, spec: EncoderSpec, x: string, mask: string, n: EncoderLayerNames): string {
  const { g } = ops;
  const { hidden, heads } = spec;
  const headDim = hidden / heads;
  const split = g.int64Vector([0, 0, heads, headDim]);
  const project = (prefix: string, perm: number[]): string =>
    g.op('Transpose', [g.op('Reshape', [linear(ops, x, prefix, hidden, hidden), split])], { perm: attr.ints(perm) });
  const q = g.op('Mul', [project(n.query, [0, 2, 1, 3]), g.floatScalar(1 / Math.sqrt(headDim))]);
  const k = project(n.key, [0, 2, 3, 1]);
  const v = project(n.value, [0, 2, 1, 3]);
  const probs = g.op('Softmax', [g.op('Add', [g.op('MatMul', [q, k]), mask])], { axis: attr.int(-1) });
  const context = g.op('Transpose', [g.op('MatMul', [probs, v])], { perm: attr.ints([0, 2, 1, 3]) });
  return linear(ops, g.op('Reshape', [context, g.int64Vector([0, 0, hidden])]), n.attentionOutput, hidden, hidden);
}
