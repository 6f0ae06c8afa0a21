import { InferkitError } from '../../../errors.js';
import { attr, type OnnxGraphBuilder } from '../../../onnx/graph-builder.js';
import type { Checkpoint } from '../../safetensors.js';

/** What every TimesFM block needs: the graph and the checkpoint its lazy weights are read from. */
export interface TimesFmContext {
  g: OnnxGraphBuilder;
  ck: Checkpoint;
}

/** Additive mask value for hidden keys: finite (a fully hidden query row stays finite, never NaN). */
const HIDDEN = -1e9;

/** PyTorch Linear weight [out, in] → MatMul's [in, out], keeping the first `rows` outputs only. */
function transposed(w: Float32Array, inDim: number, rows: number): Float32Array {
  const t = new Float32Array(inDim * rows);
  for (let o = 0; o < rows; o++) {
    const from = o * inDim;
    for (let i = 0; i < inDim; i++) {
      t[i * rows + o] = w[from + i];
    }
  }
  return t;
}

/**
 * `x @ Wᵀ + b` for the checkpoint's Linear `prefix` (weight [out, in]; bias when the checkpoint has one),
 * weights transposed once when the graph is written. `rows` keeps only the first outputs (a head whose
 * tail is never read).
 */
export function linear(ctx: TimesFmContext, x: string, prefix: string, rows?: number): string {
  const { g, ck } = ctx;
  const info = ck.info(`${prefix}.weight`);
  if (info.shape.length !== 2) {
    throw new InferkitError('model_load_failed', `${prefix}.weight in ${info.file}: expected a 2-D Linear weight, got shape [${info.shape.join(', ')}]`, { param: `${prefix}.weight` });
  }
  const [out, inDim] = info.shape;
  const keep = rows ?? out;
  const w = g.lazyFloat32(`${prefix}.weight`, [inDim, keep], () => transposed(ck.float32(`${prefix}.weight`, [out, inDim]), inDim, keep));
  let y = g.op('MatMul', [x, w]);
  if (ck.has(`${prefix}.bias`)) {
    const b = g.lazyFloat32(`${prefix}.bias`, [keep], () => ck.float32(`${prefix}.bias`, [out]).slice(0, keep));
    y = g.op('Add', [y, b]);
  }
  return y;
}

/** A head's Linear must have at least `atLeast` outputs (what the config says it makes); else a named `model_load_failed`. */
export function expectOutputs(ck: Checkpoint, prefix: string, atLeast: number, what: string): void {
  const info = ck.info(`${prefix}.weight`);
  if (info.shape[0] < atLeast) {
    throw new InferkitError('model_load_failed', `${prefix}.weight in ${info.file} has ${info.shape[0]} outputs; config.json asks for ${what} = ${atLeast}`, { param: `${prefix}.weight` });
  }
}

/** The activations TimesFM configs name. */
export type Activation = 'silu' | 'relu' | 'gelu';

/** A config's `activation` (`swish`/`silu`, `relu`, `gelu`) or a `model_load_failed` naming the field. */
export function activationOf(value: unknown, source: string): Activation {
  if (value === 'swish' || value === 'silu') {return 'silu';}
  if (value === 'relu' || value === 'gelu') {return value;}
  throw new InferkitError('model_load_failed', `${source}: config.json activation ${JSON.stringify(value)} is not one inferkit builds (swish, silu, relu, gelu)`, { param: 'activation' });
}

/** `act(x)`. */
export function activate(g: OnnxGraphBuilder, x: string, act: Activation): string {
  if (act === 'relu') {return g.op('Relu', [x]);}
  if (act === 'gelu') {
    const erf = g.op('Erf', [g.op('Mul', [x, g.floatScalar(Math.SQRT1_2)])]);
    return g.op('Mul', [g.op('Mul', [x, g.op('Add', [erf, g.floatScalar(1)])]), g.floatScalar(0.5)]);
  }
  return g.op('Mul', [x, g.op('Sigmoid', [x])]);
}

/** TimesFM's residual block: `output(act(input(x))) + residual(x)`; `rows` keeps the first outputs only. */
export function residualBlock(ctx: TimesFmContext, x: string, prefix: string, act: Activation, rows?: number): string {
  const hidden = activate(ctx.g, linear(ctx, x, `${prefix}.input_layer`), act);
  return ctx.g.op('Add', [linear(ctx, hidden, `${prefix}.output_layer`, rows), linear(ctx, x, `${prefix}.residual_layer`, rows)]);
}

/** RMSNorm over the last axis, `weight · x / sqrt(mean(x²) + eps)`, in the pattern ORT fuses (SimplifiedLayerNormalization). */
export function rmsNorm(ctx: TimesFmContext, x: string, name: string, dim: number, eps: number): string {
  const { g, ck } = ctx;
  const w = g.lazyFloat32(name, [dim], () => ck.float32(name, [dim]));
  const meanSquare = g.op('ReduceMean', [g.op('Pow', [x, g.floatScalar(2)])], { axes: attr.ints([-1]), keepdims: attr.int(1) });
  const normed = g.op('Div', [x, g.op('Sqrt', [g.op('Add', [meanSquare, g.floatScalar(eps)])])]);
  return g.op('Mul', [normed, w]);
}

/** Per-dimension query scale `softplus(scaling) · 1.442695041 / sqrt(head_dim)` (a constant computed when written). */
export function queryScale(ctx: TimesFmContext, name: string, headDim: number): string {
  const { g, ck } = ctx;
  return g.lazyFloat32(`${name}.softplus`, [headDim], () =>
    Float32Array.from(ck.float32(name, [headDim]), (s) => (s > 20 ? s : Math.log1p(Math.exp(s))) * (1.442695041 / Math.sqrt(headDim))),
  );
}

/** 0…n-1 as float32 [n], n = the length of axis 1 of `like` ([batch, n]). */
export function positions(g: OnnxGraphBuilder, like: string): string {
  const n = g.op('Squeeze', [g.op('Gather', [g.op('Shape', [like]), g.int64Vector([1])], { axis: attr.int(0) }), g.int64Vector([0])]);
  const r = g.op('Range', [g.int64('zero_i64', [0], []), n, g.int64('one_i64', [1], [])]);
  return g.op('Cast', [r], { to: attr.int(1) });
}

/**
 * The additive attention mask [batch, 1, n, n] of a causal decoder over patches: key j is hidden from query i
 * when j > i or when patch j is padding (`patchPad` [batch, n], 1 = padding).
 */
export function causalPaddingMask(g: OnnxGraphBuilder, patchPad: string, pos: string): string {
  const future = g.op('Greater', [g.op('Unsqueeze', [pos, g.int64Vector([0])]), g.op('Unsqueeze', [pos, g.int64Vector([1])])]);
  const causal = g.op('Where', [future, g.floatScalar(HIDDEN), g.floatScalar(0)]);
  const keys = g.op('Unsqueeze', [g.op('Mul', [patchPad, g.floatScalar(HIDDEN)]), g.int64Vector([1, 2])]);
  return g.op('Add', [g.op('Unsqueeze', [causal, g.int64Vector([0, 1])]), keys]);
}

/** [batch, n, heads·headDim] → [batch, heads, n, headDim]. */
export function splitHeads(g: OnnxGraphBuilder, x: string, heads: number, headDim: number): string {
  return g.op('Transpose', [g.op('Reshape', [x, g.int64Vector([0, 0, heads, headDim])])], { perm: attr.ints([0, 2, 1, 3]) });
}

/** softmax(q kᵀ + mask) v for q, k, v [batch, heads, n, headDim] (q already scaled) → [batch, n, heads·headDim]. */
export function attend(g: OnnxGraphBuilder, q: string, k: string, v: string, mask: string, hidden: number): string {
  const kT = g.op('Transpose', [k], { perm: attr.ints([0, 1, 3, 2]) });
  const probs = g.op('Softmax', [g.op('Add', [g.op('MatMul', [q, kT]), mask])], { axis: attr.int(-1) });
  const merged = g.op('Transpose', [g.op('MatMul', [probs, v])], { perm: attr.ints([0, 2, 1, 3]) });
  return g.op('Reshape', [merged, g.int64Vector([0, 0, hidden])]);
}

/** The last patch's hidden state [batch, d] of x [batch, n, d]. */
export function lastPatch(g: OnnxGraphBuilder, x: string): string {
  return g.op('Gather', [x, g.int64('last_patch', [-1], [])], { axis: attr.int(1) });
}
