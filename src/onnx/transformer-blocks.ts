import type { OnnxGraphBuilder } from './graph-builder.js';
import { attr } from './graph-builder.js';
import { randomNormalArray, type SeededRandom } from './random-weights.js';

/** What every block needs: the builder, a random source and the weight scale. */
export interface BlockContext {
  g: OnnxGraphBuilder;
  random: SeededRandom;
  /** Standard deviation of random weights. */
  std: number;
  /**
   * Dynamic int8 quantization of every weight MatMul, as onnxruntime's `quantize_dynamic` writes it:
   * weights int8 per tensor (symmetric), activations `DynamicQuantizeLinear` → `MatMulInteger` →
   * rescale. The same random weights as the float graph, quantized. @default false
   */
  quantize?: boolean;
}

/** A random [rows, cols] float32 weight initializer. */
export function randomWeight(ctx: BlockContext, name: string, rows: number, cols: number): string {
  return ctx.g.float32(name, randomNormalArray(ctx.random, rows * cols, ctx.std), [rows, cols]);
}

/** `x @ W + b` with W random [inDim, outDim] and b zero. */
export function linear(ctx: BlockContext, x: string, inDim: number, outDim: number, prefix: string): string {
  if (ctx.quantize === true) {
    return quantizedLinear(ctx, x, inDim, outDim, prefix);
  }
  const w = randomWeight(ctx, `${prefix}.weight`, inDim, outDim);
  const b = ctx.g.float32(`${prefix}.bias`, new Float32Array(outDim));
  return ctx.g.op('Add', [ctx.g.op('MatMul', [x, w]), b]);
}

/** {@link linear} with int8 weights and dynamically quantized uint8 activations (ORT fuses it into DynamicQuantizeMatMul). */
function quantizedLinear(ctx: BlockContext, x: string, inDim: number, outDim: number, prefix: string): string {
  const { g } = ctx;
  const w = randomNormalArray(ctx.random, inDim * outDim, ctx.std);
  let max = 0;
  for (const v of w) {
    max = Math.max(max, Math.abs(v));
  }
  const scale = max > 0 ? max / 127 : 1;
  const q = Int8Array.from(w, (v) => Math.max(-127, Math.min(127, Math.round(v / scale))));
  const wq = g.int8(`${prefix}.weight_quantized`, q, [inDim, outDim]);
  const wZero = g.int8(`${prefix}.weight_zero_point`, new Int8Array(1), []);
  const wScale = g.float32(`${prefix}.weight_scale`, Float32Array.of(scale), []);
  const [xq, xScale, xZero] = g.node('DynamicQuantizeLinear', [x], {}, 3);
  const product = g.op('MatMulInteger', [xq, wq, xZero, wZero]);
  const rescaled = g.op('Mul', [g.op('Cast', [product], { to: attr.int(1) }), g.op('Mul', [xScale, wScale])]);
  const b = g.float32(`${prefix}.bias`, new Float32Array(outDim));
  return g.op('Add', [rescaled, b]);
}

/** LayerNormalization over the last axis (gamma 1, beta 0). */
export function layerNorm(ctx: BlockContext, x: string, dim: number, prefix: string, epsilon: number): string {
  const gamma = ctx.g.float32(`${prefix}.gamma`, new Float32Array(dim).fill(1));
  const beta = ctx.g.float32(`${prefix}.beta`, new Float32Array(dim));
  return ctx.g.op('LayerNormalization', [x, gamma, beta], { axis: attr.int(-1), epsilon: attr.float(epsilon) });
}

/** Exact (erf) GELU: `x * 0.5 * (1 + erf(x / √2))`; ORT fuses it into one Gelu kernel. */
export function gelu(ctx: BlockContext, x: string): string {
  const { g } = ctx;
  const erf = g.op('Erf', [g.op('Mul', [x, g.floatScalar(Math.SQRT1_2)])]);
  return g.op('Mul', [g.op('Mul', [x, g.op('Add', [erf, g.floatScalar(1)])]), g.floatScalar(0.5)]);
}

/**
 * The additive attention mask from a float [batch, seq] keep-mask (1 keep, 0 ignore):
 * `(1 - mask) * -1e4`, unsqueezed to [batch, 1, 1, seq] to broadcast over heads and queries.
 */
export function additiveMask(ctx: BlockContext, keep: string): string {
  const { g } = ctx;
  const inverted = g.op('Sub', [g.floatScalar(1), keep]);
  return g.op('Unsqueeze', [g.op('Mul', [inverted, g.floatScalar(-1e4)]), g.int64Vector([1, 2])]);
}

/** Options of {@link multiHeadAttention}. */
export interface AttentionShape {
  hidden: number;
  heads: number;
}

/**
 * Multi-head self-attention of x [batch, seq, hidden] with an additive mask
 * [batch, 1, 1, seq]; returns [batch, seq, hidden] after the output projection.
 */
export function multiHeadAttention(ctx: BlockContext, x: string, mask: string, shape: AttentionShape, prefix: string): string {
  const { g } = ctx;
  const headDim = shape.hidden / shape.heads;
  const split = g.int64Vector([0, 0, shape.heads, headDim]);
  const heads = (name: string, perm: number[]): string =>
    g.op('Transpose', [g.op('Reshape', [linear(ctx, x, shape.hidden, shape.hidden, `${prefix}.${name}`), split])], {
      perm: attr.ints(perm),
    });
  const q = g.op('Mul', [heads('query', [0, 2, 1, 3]), g.floatScalar(1 / Math.sqrt(headDim))]);
  const k = heads('key', [0, 2, 3, 1]);
  const v = heads('value', [0, 2, 1, 3]);
  const scores = g.op('Add', [g.op('MatMul', [q, k]), mask]);
  const probs = g.op('Softmax', [scores], { axis: attr.int(-1) });
  const context = g.op('Transpose', [g.op('MatMul', [probs, v])], { perm: attr.ints([0, 2, 1, 3]) });
  const merged = g.op('Reshape', [context, g.int64Vector([0, 0, shape.hidden])]);
  return linear(ctx, merged, shape.hidden, shape.hidden, `${prefix}.output`);
}

/** Position-wise feed-forward: `act(x W1 + b1) W2 + b2`. */
export function feedForward(
  ctx: BlockContext,
  x: string,
  hidden: number,
  inner: number,
  activation: 'gelu' | 'relu',
  prefix: string,
): string {
  const up = linear(ctx, x, hidden, inner, `${prefix}.intermediate`);
  const act = activation === 'gelu' ? gelu(ctx, up) : ctx.g.op('Relu', [up]);
  return linear(ctx, act, inner, hidden, `${prefix}.output`);
}
