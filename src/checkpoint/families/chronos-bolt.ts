import { attr, OnnxGraphBuilder } from '../../onnx/graph-builder.js';
import type { GraphBuilderEntry } from '../builders.js';
import type { Checkpoint } from '../safetensors.js';
import { parseBoltConfig, type BoltConfig } from './chronos-bolt/bolt-config.js';
import { positionBiasTable } from './chronos-bolt/relative-position.js';
import { activation, attend, expectShape, feedForward, linear, matmulWeight, rmsNorm, splitHeads, type T5Context } from './chronos-bolt/t5-layers.js';

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
 * is the value projection; cross-attention keys/values of every layer in one MatMul) → output
 * ResidualBlock → [batch, Q, H] × scale + loc.
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
  const features = g.op('Concat', [g.op('Reshape', [scaled, toPatches]), keepPatches], { axis: attr.int(-1) });
  let patchKeep = g.op('ReduceMax', [keepPatches], { axes: attr.ints([2]), keepdims: attr.int(0) }); // [batch, patches]
  let x = residualBlock(t, features, 'input_patch_embedding', 2 * P, cfg.dFF, d, cfg);
  const vocab = ck.info('shared.weight').shape[0];
  expectShape(ck, 'shared.weight', [vocab, d]);
  if (cfg.useRegToken) {
    const reg = g.op('Expand', [embedding(g, ck, cfg.regTokenId, d), g.op('Concat', [g.op('Slice', [g.op('Shape', [x]), g.int64Vector([0]), g.int64Vector([1])]), g.int64Vector([1, 1])], { axis: attr.int(0) })]);
    x = g.op('Concat', [x, reg], { axis: attr.int(1) });
    patchKeep = g.op('Pad', [patchKeep, g.int64Vector([0, 0, 0, 1]), g.floatScalar(1)]);
  }
  // [batch, 1, 1, seq]: 0 where a patch has a value (and at [REG]), float32 min where it has none.
  const maskBias = g.op('Unsqueeze', [g.op('Mul', [g.op('Sub', [g.floatScalar(1), patchKeep]), g.floatScalar(FLOAT32_MIN)]), g.int64Vector([1, 2])]);

  const encoded = encoder(t, x, maskBias, cfg);
  const decoded = decoder(t, encoded, maskBias, cfg);
  const flat = residualBlock(t, g.op('Reshape', [decoded, g.int64Vector([0, d])]), 'output_patch_embedding', d, cfg.dFF, Q * H, cfg);
  const preds = g.op('Reshape', [flat, g.int64Vector([0, Q, H])]);
  const scale3 = g.op('Unsqueeze', [scale, g.int64Vector([2])]);
  const loc3 = g.op('Unsqueeze', [loc, g.int64Vector([2])]);
  g.op('Add', [g.op('Mul', [preds, scale3]), loc3], {}, 'quantile_preds');
  g.output('quantile_preds', 'float32', ['batch', Q, H]);
  return g;
}

/** Bump when the graph written for the same checkpoint changes (the graph cache's key has it). */
export const CHRONOS_BOLT_BUILDER_VERSION = 1;

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

/** Row `id` of `shared.weight`, as a constant [1, 1, d_model]. */
function embedding(g: OnnxGraphBuilder, ck: Checkpoint, id: number, d: number): string {
  return g.lazyFloat32(`shared.weight.${id}`, [1, 1, d], () => {
    const all = ck.float32('shared.weight');
    return all.slice(id * d, (id + 1) * d);
  });
}

/** ChronosBolt's ResidualBlock: `output(act(hidden(x))) + residual(x)` (hidden and residual in one MatMul). */
function residualBlock(t: T5Context, x: string, prefix: string, inDim: number, hidden: number, outDim: number, cfg: BoltConfig): string {
  const { g } = t;
  const w = matmulWeight(t, `${prefix}.in_t`, [`${prefix}.hidden_layer.weight`, `${prefix}.residual_layer.weight`], inDim, [hidden, outDim]);
  const bias = g.lazyFloat32(`${prefix}.in_bias`, [hidden + outDim], () => {
    const out = new Float32Array(hidden + outDim);
    out.set(t.ck.float32(`${prefix}.hidden_layer.bias`, [hidden]));
    out.set(t.ck.float32(`${prefix}.residual_layer.bias`, [outDim]), hidden);
    return out;
  });
  const [pre, residual] = g.node('Split', [g.op('Add', [g.op('MatMul', [x, w]), bias]), g.int64Vector([hidden, outDim])], { axis: attr.int(-1) }, 2);
  return g.op('Add', [linear(t, activation(g, pre, cfg.activation), `${prefix}.output_layer`, hidden, outDim), residual]);
}

/** T5 encoder stack over `x` [batch, seq, d_model] with the padding mask bias [batch, 1, 1, seq]. */
function encoder(t: T5Context, input: string, maskBias: string, cfg: BoltConfig): string {
  const { g, ck } = t;
  const { dModel: d, heads, dKv } = cfg;
  const inner = heads * dKv;
  const length = cfg.contextLength / cfg.patchSize + (cfg.useRegToken ? 1 : 0);
  const biasName = 'encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight';
  expectShape(ck, biasName, [cfg.buckets, heads]);
  const table = g.lazyFloat32('encoder.position_bias', [1, heads, length, length], () =>
    positionBiasTable(ck.float32(biasName), heads, length, { buckets: cfg.buckets, maxDistance: cfg.maxDistance, bidirectional: true }),
  );
  const seq = g.op('Slice', [g.op('Shape', [input]), g.int64Vector([1]), g.int64Vector([2])]);
  const positionBias = g.op('Slice', [table, g.int64Vector([0, 0]), g.op('Concat', [seq, seq], { axis: attr.int(0) }), g.int64Vector([2, 3])]);
  const bias = g.op('Add', [positionBias, maskBias]); // [batch, heads, seq, seq], shared by every layer
  let x = input;
  for (let i = 0; i < cfg.encoderLayers; i++) {
    const p = `encoder.block.${i}.layer`;
    const a = `${p}.0.SelfAttention`;
    const qkvW = matmulWeight(t, `${a}.qkv_t`, [`${a}.q.weight`, `${a}.k.weight`, `${a}.v.weight`], d, [inner, inner, inner]);
    const [q, k, v] = g.node('Split', [g.op('MatMul', [rmsNorm(t, x, `${p}.0.layer_norm.weight`, d), qkvW]), g.int64Vector([inner, inner, inner])], { axis: attr.int(-1) }, 3);
    const context = attend(g, splitHeads(g, q, heads, dKv), splitHeads(g, k, heads, dKv, true), splitHeads(g, v, heads, dKv), bias, inner);
    x = g.op('Add', [x, g.op('MatMul', [context, matmulWeight(t, `${a}.o_t`, [`${a}.o.weight`], inner, [d])])]);
    x = g.op('Add', [x, feedForward(t, rmsNorm(t, x, `${p}.1.layer_norm.weight`, d), `${p}.1.DenseReluDense`, { dModel: d, dFF: cfg.dFF, act: cfg.activation, gated: cfg.gated })]);
  }
  return rmsNorm(t, x, 'encoder.final_layer_norm.weight', d);
}

/**
 * T5 decoder stack on the one decoder start token, cross-attending to `encoded` [batch, seq, d_model];
 * returns [batch, 1, d_model]. Self-attention over a single position is exactly its value projection
 * (softmax of one score is 1), so q, k and the decoder's position bias drop out.
 */
function decoder(t: T5Context, encoded: string, maskBias: string, cfg: BoltConfig): string {
  const { g } = t;
  const { dModel: d, heads, dKv } = cfg;
  const inner = heads * dKv;
  const layers = Array.from({ length: cfg.decoderLayers }, (_, i) => `decoder.block.${i}.layer`);
  const kvNames = layers.flatMap((p) => [`${p}.1.EncDecAttention.k.weight`, `${p}.1.EncDecAttention.v.weight`]);
  const kvW = matmulWeight(t, 'decoder.cross_kv_t', kvNames, d, kvNames.map(() => inner));
  const kv = g.node('Split', [g.op('MatMul', [encoded, kvW]), g.int64Vector(kvNames.map(() => inner))], { axis: attr.int(-1) }, kvNames.length);
  let x = embedding(g, t.ck, cfg.decoderStartTokenId, d); // [1, 1, d]: the same start token for every row
  layers.forEach((p, i) => {
    const s = `${p}.0.SelfAttention`;
    const vo = g.op('MatMul', [g.op('MatMul', [rmsNorm(t, x, `${p}.0.layer_norm.weight`, d), matmulWeight(t, `${s}.v_t`, [`${s}.v.weight`], d, [inner])]), matmulWeight(t, `${s}.o_t`, [`${s}.o.weight`], inner, [d])]);
    x = g.op('Add', [x, vo]);
    const c = `${p}.1.EncDecAttention`;
    const q = g.op('MatMul', [rmsNorm(t, x, `${p}.1.layer_norm.weight`, d), matmulWeight(t, `${c}.q_t`, [`${c}.q.weight`], d, [inner])]);
    const context = attend(g, splitHeads(g, q, heads, dKv), splitHeads(g, kv[2 * i], heads, dKv, true), splitHeads(g, kv[2 * i + 1], heads, dKv), maskBias, inner);
    x = g.op('Add', [x, g.op('MatMul', [context, matmulWeight(t, `${c}.o_t`, [`${c}.o.weight`], inner, [d])])]);
    x = g.op('Add', [x, feedForward(t, rmsNorm(t, x, `${p}.2.layer_norm.weight`, d), `${p}.2.DenseReluDense`, { dModel: d, dFF: cfg.dFF, act: cfg.activation, gated: cfg.gated })]);
  });
  return rmsNorm(t, x, 'decoder.final_layer_norm.weight', d);
}
