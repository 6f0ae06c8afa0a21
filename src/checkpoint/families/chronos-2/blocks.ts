import { attr, type OnnxGraphBuilder } from '../../../onnx/graph-builder.js';
import { activation, attend, expectShape, linear, matmulWeight, rmsNorm, splitHeads, type T5Context } from '../chronos-bolt/t5-layers.js';
import type { Chronos2Config } from './config.js';

/** float32's lowest value: the additive mask of a key that is not attended to (`torch.finfo(float32).min`). */
export const FLOAT32_MIN = -3.4028234663852886e38;

/** RoPE tables for positions 0…S−1 of `x`'s axis 1: `{ cos, sin }`, each [S, d_kv] (frequencies repeated twice, as transformers). */
export function ropeTables(g: OnnxGraphBuilder, x: string, cfg: Chronos2Config): { cos: string; sin: string } {
  const half = cfg.dKv / 2;
  const inv = Float32Array.from({ length: half }, (_, i) => 1 / Math.fround(cfg.ropeTheta ** Math.fround((2 * i) / cfg.dKv)));
  const seq = g.op('Cast', [g.op('Squeeze', [g.op('Slice', [g.op('Shape', [x]), g.int64Vector([1]), g.int64Vector([2])]), g.int64Vector([0])])], { to: attr.int(1) });
  const positions = g.op('Range', [g.floatScalar(0), seq, g.floatScalar(1)]);
  const freqs = g.op('Mul', [g.op('Unsqueeze', [positions, g.int64Vector([1])]), g.float32('rope.inv_freq', inv, [1, half])]);
  const emb = g.op('Concat', [freqs, freqs], { axis: attr.int(-1) });
  return { cos: g.op('Cos', [emb]), sin: g.op('Sin', [emb]) };
}

/** `x·cos + rotate_half(x)·sin` over the last axis of x [batch, heads, S, d_kv] (rotate_half = [−x₂, x₁]). */
function rotate(g: OnnxGraphBuilder, x: string, rope: { cos: string; sin: string }, dKv: number): string {
  const [x1, x2] = g.node('Split', [x, g.int64Vector([dKv / 2, dKv / 2])], { axis: attr.int(-1) }, 2);
  const rotated = g.op('Concat', [g.op('Neg', [x2]), x1], { axis: attr.int(-1) });
  return g.op('Add', [g.op('Mul', [x, rope.cos]), g.op('Mul', [rotated, rope.sin])]);
}

/**
 * One MHA of Chronos-2 on x [A, S, d_model] (A = batch for time attention, time for group attention): q, k, v in
 * one MatMul of the normed x, RoPE on q and k when `rope` is given, no 1/√d scaling, additive `bias`; returns
 * the output projection [A, S, d_model].
 */
function attention(t: T5Context, normed: string, prefix: string, bias: string, cfg: Chronos2Config, rope?: { cos: string; sin: string }): string {
  const { g } = t;
  const { dModel: d, heads, dKv } = cfg;
  const inner = heads * dKv;
  const qkvW = matmulWeight(t, `${prefix}.qkv_t`, [`${prefix}.q.weight`, `${prefix}.k.weight`, `${prefix}.v.weight`], d, [inner, inner, inner]);
  const [q, k, v] = g.node('Split', [g.op('MatMul', [normed, qkvW]), g.int64Vector([inner, inner, inner])], { axis: attr.int(-1) }, 3);
  let qh = splitHeads(g, q, heads, dKv);
  let kh = splitHeads(g, k, heads, dKv);
  if (rope !== undefined) {
    qh = rotate(g, qh, rope, dKv);
    kh = rotate(g, kh, rope, dKv);
  }
  const kT = g.op('Transpose', [kh], { perm: attr.ints([0, 1, 3, 2]) });
  const context = attend(g, qh, kT, splitHeads(g, v, heads, dKv), bias, inner);
  return g.op('MatMul', [context, matmulWeight(t, `${prefix}.o_t`, [`${prefix}.o.weight`], inner, [d])]);
}

/** Masks of one forward pass: time attention [batch, 1, 1, S] and group attention [S, 1, batch, batch]. */
export interface Chronos2Masks {
  time: string;
  group: string;
}

/**
 * The additive masks from `keep` [batch, S] (1 = a position with a value) and `groupIds` [batch]: time attention
 * skips empty positions of the row; group attention at time t lets row q see row b when both are in one group
 * and b has a value at t (the reference's group_time_mask).
 */
export function chronos2Masks(g: OnnxGraphBuilder, keep: string, groupIds: string): Chronos2Masks {
  const invert = (m: string): string => g.op('Mul', [g.op('Sub', [g.floatScalar(1), m]), g.floatScalar(FLOAT32_MIN)]);
  const time = g.op('Unsqueeze', [invert(keep), g.int64Vector([1, 2])]);
  const same = g.op('Cast', [g.op('Equal', [g.op('Unsqueeze', [groupIds, g.int64Vector([1])]), g.op('Unsqueeze', [groupIds, g.int64Vector([0])])])], { to: attr.int(1) });
  const keys = g.op('Unsqueeze', [g.op('Transpose', [keep], { perm: attr.ints([1, 0]) }), g.int64Vector([1, 2])]); // [S, 1, 1, batch]
  const group = invert(g.op('Mul', [g.op('Unsqueeze', [same, g.int64Vector([0, 1])]), keys]));
  return { time, group };
}

/** Encoder block `i`: time self-attention (RoPE), group self-attention across the rows, feed-forward; x [batch, S, d_model]. */
export function encoderBlock(t: T5Context, x: string, i: number, masks: Chronos2Masks, rope: { cos: string; sin: string }, cfg: Chronos2Config): string {
  const { g } = t;
  const d = cfg.dModel;
  const p = `encoder.block.${i}.layer`;
  let h = g.op('Add', [x, attention(t, rmsNorm(t, x, `${p}.0.layer_norm.weight`, d), `${p}.0.self_attention`, masks.time, cfg, rope)]);
  const byTime = g.op('Transpose', [h], { perm: attr.ints([1, 0, 2]) });
  const grouped = g.op('Add', [byTime, attention(t, rmsNorm(t, byTime, `${p}.1.layer_norm.weight`, d), `${p}.1.self_attention`, masks.group, cfg)]);
  h = g.op('Transpose', [grouped], { perm: attr.ints([1, 0, 2]) });
  const m = `${p}.2.mlp`;
  const up = activation(g, g.op('MatMul', [rmsNorm(t, h, `${p}.2.layer_norm.weight`, d), matmulWeight(t, `${m}.wi_t`, [`${m}.wi.weight`], d, [cfg.dFF])]), cfg.activation);
  return g.op('Add', [h, g.op('MatMul', [up, matmulWeight(t, `${m}.wo_t`, [`${m}.wo.weight`], cfg.dFF, [d])])]);
}

/** The reference's ResidualBlock `prefix`: `output(act(hidden(x))) + residual(x)` (hidden and residual in one MatMul). */
export function residualBlock(t: T5Context, x: string, prefix: string, inDim: number, outDim: number, cfg: Chronos2Config): string {
  const { g } = t;
  const hidden = cfg.dFF;
  expectShape(t.ck, `${prefix}.hidden_layer.bias`, [hidden]);
  expectShape(t.ck, `${prefix}.residual_layer.bias`, [outDim]);
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
