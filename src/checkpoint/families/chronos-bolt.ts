import { attr, OnnxGraphBuilder } from '../../onnx/graph-builder.js';
import { splitNarrow } from '../../onnx/split-narrow.js';
import type { GraphBuilderEntry } from '../builders.js';
import type { Checkpoint } from '../safetensors.js';
import { parseBoltConfig, type BoltConfig } from './chronos-bolt/bolt-config.js';
import { positionBiasTable } from './chronos-bolt/relative-position.js';
import { activation, expectShape, rmsNorm, type T5Context } from './chronos-bolt/t5-layers.js';
import { attendRows, feedForwardRows, gemm, linearRows, linearWeight, splitHeadsBy } from './chronos-bolt/t5-rows.js';

/** float32's lowest value: T5's additive mask for a key that is not attended to (`torch.finfo(float32).min`). */
const FLOAT32_MIN = -3.4028234663852886e38;

/**
 * Chronos-Bolt (`ChronosBoltModelForForecasting`, amazon-science/chronos-forecasting) from its checkpoint, as
 * one ONNX graph: input `context` float32 [batch, time] (NaN = missing or left padding; any length — the most
 * recent `context_length` steps are used, and a length that is not a multiple of `input_patch_size` is
 * left-padded with NaN, as the model does), output `quantile_preds` float32 [batch, quantiles,
 * prediction_length], de-normalised. The same contract as `scripts/export-chronos-bolt.py`'s export.
 *
 * Graph: NaN-aware instance norm (loc = mean of the present values, 0 for an empty row; scale = their
 * standard deviation, 1 for an empty row, 1e-5 when 0) → patches of the scaled values (missing = 0) beside
 * the patch's presence mask → input ResidualBlock → [REG] token (`use_reg_token`) → T5 encoder (RMS norms,
 * unscaled attention with one bidirectional relative-position bias table for all layers plus the padding
 * mask, ReLU/gated feed-forward) → T5 decoder on the one start token (its self-attention over one position
 * is the value projection; cross-attention keys/values of every layer in one Gemm) → output
 * ResidualBlock → [batch, Q, H] × scale + loc. Activations are 2-D [batch·seq, width] and every projection
 * is a Gemm with `transB` on the checkpoint's [out, in] weight: building copies weights, never transposes.
 */
export function buildChronosBoltGraph(ck: Checkpoint): OnnxGraphBuilder {
  const cfg = parseBoltConfig(ck.config, ck.dir);
  const g = new OnnxGraphBuilder({ name: 'chronos_bolt' });
  const t: T5Context = { g, ck, epsilon: cfg.epsilon };
  const { patchSize: P, dModel: d } = cfg;
  const Q = cfg.quantiles.length;
  const H = cfg.predictionLength;

  const input = g.input('context', 'float32', ['batch', 'time']);
  const context = g.op('Slice', [input, g.int64Vector([-cfg.contextLength]), g.int64Vector([2 ** 53]), g.int64Vector([1])]);
  const { scaled, keep, loc, scale } = instanceNorm(g, leftPadToPatches(g, context, P));

  const toPatches = g.int64Vector([0, -1, P]);
  const keepPatches = g.op('Reshape', [keep, toPatches]);
  const features = g.op('Concat', [g.op('Reshape', [scaled, toPatches]), keepPatches], { axis: attr.int(-1) }); // [batch, patches, 2P]
  let patchKeep = g.op('ReduceMax', [keepPatches], { axes: attr.ints([2]), keepdims: attr.int(0) }); // [batch, patches]
  // Activations stay 2-D [batch·seq, width] so every projection is one Gemm on the checkpoint's own [out, in] weights.
  let x = residualBlock(t, g.op('Reshape', [features, g.int64Vector([-1, 2 * P])]), 'input_patch_embedding', 2 * P, cfg.dFF, d, cfg);
  const vocab = ck.info('shared.weight').shape[0];
  expectShape(ck, 'shared.weight', [vocab, d]);
  if (cfg.useRegToken) {
    const batchPatches = g.op('Slice', [g.op('Shape', [features]), g.int64Vector([0]), g.int64Vector([2])]);
    const x3 = g.op('Reshape', [x, g.op('Concat', [batchPatches, g.int64Vector([d])], { axis: attr.int(0) })]);
    const reg = g.op('Expand', [g.op('Reshape', [embedding(g, ck, cfg.regTokenId, d), g.int64Vector([1, 1, d])]), g.op('Concat', [g.op('Slice', [batchPatches, g.int64Vector([0]), g.int64Vector([1])]), g.int64Vector([1, 1])], { axis: attr.int(0) })]);
    x = g.op('Reshape', [g.op('Concat', [x3, reg], { axis: attr.int(1) }), g.int64Vector([-1, d])]);
    patchKeep = g.op('Pad', [patchKeep, g.int64Vector([0, 0, 0, 1]), g.floatScalar(1)]);
  }
  // [batch, 1, 1, seq]: 0 where a patch has a value (and at [REG]), float32 min where it has none.
  const maskBias = g.op('Unsqueeze', [g.op('Mul', [g.op('Sub', [g.floatScalar(1), patchKeep]), g.floatScalar(FLOAT32_MIN)]), g.int64Vector([1, 2])]);
  const seq = g.op('Slice', [g.op('Shape', [patchKeep]), g.int64Vector([1]), g.int64Vector([2])]);
  const bySeq = g.op('Concat', [g.int64Vector([-1]), seq, g.int64Vector([cfg.heads, cfg.dKv])], { axis: attr.int(0) });

  const encoded = encoder(t, x, { maskBias, seq, bySeq }, cfg);
  const decoded = decoder(t, encoded, { maskBias, seq, bySeq }, cfg);
  const flat = residualBlock(t, decoded, 'output_patch_embedding', d, cfg.dFF, Q * H, cfg);
  const preds = g.op('Reshape', [flat, g.int64Vector([-1, Q, H])]);
  const scale3 = g.op('Unsqueeze', [scale, g.int64Vector([2])]);
  const loc3 = g.op('Unsqueeze', [loc, g.int64Vector([2])]);
  g.op('Add', [g.op('Mul', [preds, scale3]), loc3], {}, 'quantile_preds');
  g.output('quantile_preds', 'float32', ['batch', Q, H]);
  return g;
}

/** Bump when the graph written for the same checkpoint changes (the graph cache's key has it). */
export const CHRONOS_BOLT_BUILDER_VERSION = 3;

/** The Chronos-Bolt entry of GRAPH_BUILDERS. */
export const chronosBoltBuilder: GraphBuilderEntry = {
  version: CHRONOS_BOLT_BUILDER_VERSION,
  build: (ck) => buildChronosBoltGraph(ck),
};

/** NaN on the left up to a multiple of `P` (Chronos-Bolt's Patch does the same). */
function leftPadToPatches(g: OnnxGraphBuilder, x: string, P: number): string {
  const time = g.op('Slice', [g.op('Shape', [x]), g.int64Vector([1]), g.int64Vector([2])]);
  const p = g.int64Vector([P]);
  const pad = g.op('Mod', [g.op('Sub', [p, g.op('Mod', [time, p])]), p]);
  const zero = g.int64Vector([0]);
  return g.op('Pad', [x, g.op('Concat', [zero, pad, zero, zero], { axis: attr.int(0) }), g.floatScalar(Number.NaN)]);
}

/** InstanceNorm of ChronosBolt over the present values of each row; `scaled` is 0 where a value is missing. */
function instanceNorm(g: OnnxGraphBuilder, x: string): { scaled: string; keep: string; loc: string; scale: string } {
  const missing = g.op('IsNaN', [x]);
  const keep = g.op('Cast', [g.op('Not', [missing])], { to: attr.int(1) });
  const x0 = g.op('Where', [missing, g.floatScalar(0), x]);
  const axis = g.int64Vector([1]);
  const count = g.op('ReduceSum', [keep, axis], { keepdims: attr.int(1) });
  const empty = g.op('Equal', [count, g.floatScalar(0)]);
  const denom = g.op('Max', [count, g.floatScalar(1)]);
  const loc = g.op('Div', [g.op('ReduceSum', [x0, axis], { keepdims: attr.int(1) }), denom]);
  const centered = g.op('Mul', [g.op('Sub', [x0, loc]), keep]);
  const std = g.op('Sqrt', [g.op('Div', [g.op('ReduceSum', [g.op('Mul', [centered, centered]), axis], { keepdims: attr.int(1) }), denom])]);
  const one = g.floatScalar(1);
  const scale = g.op('Where', [empty, one, g.op('Where', [g.op('Equal', [std, g.floatScalar(0)]), g.floatScalar(1e-5), std])]);
  return { scaled: g.op('Div', [centered, scale]), keep, loc, scale };
}

/** Row `id` of `shared.weight`, as a constant [1, d_model]. */
function embedding(g: OnnxGraphBuilder, ck: Checkpoint, id: number, d: number): string {
  return g.lazyFloat32(`shared.weight.${id}`, [1, d], () => {
    const all = ck.float32('shared.weight');
    return all.slice(id * d, (id + 1) * d);
  });
}

/** ChronosBolt's ResidualBlock on x [rows, in]: `output(act(hidden(x))) + residual(x)` (hidden and residual in one Gemm). */
function residualBlock(t: T5Context, x: string, prefix: string, inDim: number, hidden: number, outDim: number, cfg: BoltConfig): string {
  const { g } = t;
  const w = linearWeight(t, `${prefix}.in_weight`, [`${prefix}.hidden_layer.weight`, `${prefix}.residual_layer.weight`], inDim, [hidden, outDim]);
  const bias = g.lazyFloat32(`${prefix}.in_bias`, [hidden + outDim], () => {
    const out = new Float32Array(hidden + outDim);
    out.set(t.ck.float32(`${prefix}.hidden_layer.bias`, [hidden]));
    out.set(t.ck.float32(`${prefix}.residual_layer.bias`, [outDim]), hidden);
    return out;
  });
  const [pre, residual] = g.node('Split', [gemm(g, x, w, bias), g.int64Vector([hidden, outDim])], { axis: attr.int(-1) }, 2);
  return g.op('Add', [linearRows(t, activation(g, pre, cfg.activation), `${prefix}.output_layer`, hidden, outDim), residual]);
}

/** Per-sequence values the stacks share: the padding mask bias [batch, 1, 1, seq], seq (int64 [1]) and `[-1, seq, heads, d_kv]`. */
interface SequenceInfo {
  maskBias: string;
  seq: string;
  bySeq: string;
}

/** T5 encoder stack over `input` [batch·seq, d_model]; returns the same shape. */
function encoder(t: T5Context, input: string, sq: SequenceInfo, cfg: BoltConfig): string {
  const { g, ck } = t;
  const { dModel: d, heads } = cfg;
  const inner = heads * cfg.dKv;
  const length = cfg.contextLength / cfg.patchSize + (cfg.useRegToken ? 1 : 0);
  const biasName = 'encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight';
  expectShape(ck, biasName, [cfg.buckets, heads]);
  const table = g.lazyFloat32('encoder.position_bias', [1, heads, length, length], () =>
    positionBiasTable(ck.float32(biasName), heads, length, { buckets: cfg.buckets, maxDistance: cfg.maxDistance, bidirectional: true }),
  );
  const positionBias = g.op('Slice', [table, g.int64Vector([0, 0]), g.op('Concat', [sq.seq, sq.seq], { axis: attr.int(0) }), g.int64Vector([2, 3])]);
  const bias = g.op('Add', [positionBias, sq.maskBias]); // [batch, heads, seq, seq], shared by every layer
  let x = input;
  for (let i = 0; i < cfg.encoderLayers; i++) {
    const p = `encoder.block.${i}.layer`;
    const a = `${p}.0.SelfAttention`;
    const qkvW = linearWeight(t, `${a}.qkv`, [`${a}.q.weight`, `${a}.k.weight`, `${a}.v.weight`], d, [inner, inner, inner]);
    const [q, k, v] = g.node('Split', [gemm(g, rmsNorm(t, x, `${p}.0.layer_norm.weight`, d), qkvW), g.int64Vector([inner, inner, inner])], { axis: attr.int(-1) }, 3);
    const context = attendRows(g, splitHeadsBy(g, q, sq.bySeq), splitHeadsBy(g, k, sq.bySeq, true), splitHeadsBy(g, v, sq.bySeq), bias, inner);
    x = g.op('Add', [x, gemm(g, context, linearWeight(t, `${a}.o.weight`, [`${a}.o.weight`], inner, [d]))]);
    x = g.op('Add', [x, feedForwardRows(t, rmsNorm(t, x, `${p}.1.layer_norm.weight`, d), `${p}.1.DenseReluDense`, { dModel: d, dFF: cfg.dFF, act: cfg.activation, gated: cfg.gated })]);
  }
  return rmsNorm(t, x, 'encoder.final_layer_norm.weight', d);
}

/**
 * T5 decoder stack on the one decoder start token, cross-attending to `encoded` [batch·seq, d_model];
 * returns [batch, d_model]. Self-attention over a single position is exactly its value projection
 * (softmax of one score is 1), so q, k and the decoder's position bias drop out.
 */
function decoder(t: T5Context, encoded: string, sq: SequenceInfo, cfg: BoltConfig): string {
  const { g } = t;
  const { dModel: d, heads, dKv } = cfg;
  const inner = heads * dKv;
  const layers = Array.from({ length: cfg.decoderLayers }, (_, i) => `decoder.block.${i}.layer`);
  const kvNames = layers.flatMap((p) => [`${p}.1.EncDecAttention.k.weight`, `${p}.1.EncDecAttention.v.weight`]);
  const kvW = linearWeight(t, 'decoder.cross_kv', kvNames, d, kvNames.map(() => inner));
  const kv = splitNarrow(g, gemm(g, encoded, kvW), kvNames.map(() => inner));
  const oneQuery = g.int64Vector([-1, heads, 1, dKv]);
  let x = embedding(g, t.ck, cfg.decoderStartTokenId, d); // [1, d]: the same start token for every row
  layers.forEach((p, i) => {
    const s = `${p}.0.SelfAttention`;
    const value = gemm(g, rmsNorm(t, x, `${p}.0.layer_norm.weight`, d), linearWeight(t, `${s}.v.weight`, [`${s}.v.weight`], d, [inner]));
    x = g.op('Add', [x, gemm(g, value, linearWeight(t, `${s}.o.weight`, [`${s}.o.weight`], inner, [d]))]);
    const c = `${p}.1.EncDecAttention`;
    const q = gemm(g, rmsNorm(t, x, `${p}.1.layer_norm.weight`, d), linearWeight(t, `${c}.q.weight`, [`${c}.q.weight`], d, [inner]));
    const context = attendRows(g, g.op('Reshape', [q, oneQuery]), splitHeadsBy(g, kv[2 * i], sq.bySeq, true), splitHeadsBy(g, kv[2 * i + 1], sq.bySeq), sq.maskBias, inner);
    x = g.op('Add', [x, gemm(g, context, linearWeight(t, `${c}.o.weight`, [`${c}.o.weight`], inner, [d]))]);
    x = g.op('Add', [x, feedForwardRows(t, rmsNorm(t, x, `${p}.2.layer_norm.weight`, d), `${p}.2.DenseReluDense`, { dModel: d, dFF: cfg.dFF, act: cfg.activation, gated: cfg.gated })]);
  });
  return rmsNorm(t, x, 'decoder.final_layer_norm.weight', d);
}
