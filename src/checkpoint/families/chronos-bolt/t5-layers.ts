import { InferkitError } from '../../../errors.js';
import { attr, type OnnxGraphBuilder } from '../../../onnx/graph-builder.js';
import type { Checkpoint } from '../../safetensors.js';
import type { BoltActivation } from './bolt-config.js';

/** A graph being built from a checkpoint. */
export interface T5Context {
  g: OnnxGraphBuilder;
  ck: Checkpoint;
  /** `layer_norm_epsilon`. */
  epsilon: number;
}

/** Checks now (from the header) that tensor `name` has `shape`, so a wrong checkpoint fails before anything is written. */
export function expectShape(ck: Checkpoint, name: string, shape: readonly number[]): void {
  const got = ck.info(name).shape;
  if (got.length !== shape.length || got.some((d, i) => d !== shape[i])) {
    throw new InferkitError('model_load_failed', `${ck.info(name).file}: tensor ${name} has shape [${got.join(', ')}], the config implies [${shape.join(', ')}]`);
  }
}

/**
 * PyTorch Linear weights [out_k, in] (no bias), transposed and side by side as one MatMul weight
 * [in, Σ out_k], read lazily (one checkpoint tensor at a time when the graph is written).
 */
export function matmulWeight(t: T5Context, graphName: string, names: readonly string[], inDim: number, outDims: readonly number[]): string {
  names.forEach((n, k) => expectShape(t.ck, n, [outDims[k], inDim]));
  const total = outDims.reduce((a, b) => a + b, 0);
  return t.g.lazyFloat32(graphName, [inDim, total], () => {
    const out = new Float32Array(inDim * total);
    let col = 0;
    names.forEach((n, k) => {
      transposeInto(t.ck.float32(n, [outDims[k], inDim]), outDims[k], inDim, out, total, col);
      col += outDims[k];
    });
    return out;
  });
}

const TILE = 32;

/** `out[i * stride + col + o] = w[o * cols + i]` for w [rows, cols], in cache-sized tiles (a plain loop strides through memory on every write). */
function transposeInto(w: Float32Array, rows: number, cols: number, out: Float32Array, stride: number, col: number): void {
  for (let o0 = 0; o0 < rows; o0 += TILE) {
    const o1 = Math.min(rows, o0 + TILE);
    for (let i0 = 0; i0 < cols; i0 += TILE) {
      const i1 = Math.min(cols, i0 + TILE);
      for (let i = i0; i < i1; i++) {
        const base = i * stride + col;
        for (let o = o0; o < o1; o++) {
          out[base + o] = w[o * cols + i];
        }
      }
    }
  }
}

/** A checkpoint vector (bias, norm weight) as a lazy initializer of the same name. */
export function vector(t: T5Context, name: string, length: number): string {
  expectShape(t.ck, name, [length]);
  return t.g.lazyFloat32(name, [length], () => t.ck.float32(name, [length]));
}

/** `x @ W^T + b` of a PyTorch Linear `prefix` ({weight [out, in], bias [out]}). */
export function linear(t: T5Context, x: string, prefix: string, inDim: number, outDim: number): string {
  const w = matmulWeight(t, `${prefix}.weight_t`, [`${prefix}.weight`], inDim, [outDim]);
  return t.g.op('Add', [t.g.op('MatMul', [x, w]), vector(t, `${prefix}.bias`, outDim)]);
}

/** T5LayerNorm: RMS over the last axis, no mean, no bias (`x / sqrt(mean(x²) + eps) * weight`), in the shape ORT fuses. */
export function rmsNorm(t: T5Context, x: string, weightName: string, dim: number): string {
  const { g } = t;
  const meanSquare = g.op('ReduceMean', [g.op('Pow', [x, g.floatScalar(2)])], { axes: attr.ints([-1]), keepdims: attr.int(1) });
  const rms = g.op('Sqrt', [g.op('Add', [meanSquare, g.floatScalar(t.epsilon)])]);
  return g.op('Mul', [g.op('Div', [x, rms]), vector(t, weightName, dim)]);
}

/** transformers' ACT2FN[name] as ONNX ops. */
export function activation(g: OnnxGraphBuilder, x: string, name: BoltActivation): string {
  if (name === 'relu') {
    return g.op('Relu', [x]);
  }
  const half = (inner: string): string => g.op('Mul', [g.op('Mul', [x, g.floatScalar(0.5)]), g.op('Add', [inner, g.floatScalar(1)])]);
  if (name === 'gelu') {
    return half(g.op('Erf', [g.op('Mul', [x, g.floatScalar(Math.SQRT1_2)])]));
  }
  const cube = g.op('Mul', [g.op('Mul', [x, x]), x]);
  const inner = g.op('Mul', [g.op('Add', [x, g.op('Mul', [cube, g.floatScalar(0.044715)])]), g.floatScalar(Math.sqrt(2 / Math.PI))]);
  return half(g.op('Tanh', [inner]));
}

/** T5's feed-forward `prefix` (DenseReluDense / DenseGatedActDense, no biases): `wo(act(wi x))` or `wo(act(wi_0 x) · wi_1 x)`. */
export function feedForward(t: T5Context, x: string, prefix: string, dims: { dModel: number; dFF: number; act: BoltActivation; gated: boolean }): string {
  const { g } = t;
  const { dModel, dFF } = dims;
  let inner: string;
  if (dims.gated) {
    const w = matmulWeight(t, `${prefix}.wi_t`, [`${prefix}.wi_0.weight`, `${prefix}.wi_1.weight`], dModel, [dFF, dFF]);
    const [gate, up] = g.node('Split', [g.op('MatMul', [x, w]), g.int64Vector([dFF, dFF])], { axis: attr.int(-1) }, 2);
    inner = g.op('Mul', [activation(g, gate, dims.act), up]);
  } else {
    inner = activation(g, g.op('MatMul', [x, matmulWeight(t, `${prefix}.wi_t`, [`${prefix}.wi.weight`], dModel, [dFF])]), dims.act);
  }
  return g.op('MatMul', [inner, matmulWeight(t, `${prefix}.wo_t`, [`${prefix}.wo.weight`], dFF, [dModel])]);
}

/** [batch, seq, heads·dKv] → [batch, heads, seq, dKv] (or [batch, heads, dKv, seq] with `keys`). */
export function splitHeads(g: OnnxGraphBuilder, x: string, heads: number, dKv: number, keys = false): string {
  const shaped = g.op('Reshape', [x, g.int64Vector([0, 0, heads, dKv])]);
  return g.op('Transpose', [shaped], { perm: attr.ints(keys ? [0, 2, 3, 1] : [0, 2, 1, 3]) });
}

/**
 * T5 attention core (no 1/√d scaling: T5 folds it into its weights): `softmax(q kᵀ + bias) v`, q
 * [batch, heads, seq, dKv], kT [batch, heads, dKv, keys], v [batch, heads, keys, dKv], bias broadcast to
 * [batch, heads, seq, keys]; returns [batch, seq, heads·dKv].
 */
export function attend(g: OnnxGraphBuilder, q: string, kT: string, v: string, bias: string, inner: number): string {
  const probs = g.op('Softmax', [g.op('Add', [g.op('MatMul', [q, kT]), bias])], { axis: attr.int(-1) });
  const merged = g.op('Transpose', [g.op('MatMul', [probs, v])], { perm: attr.ints([0, 2, 1, 3]) });
  return g.op('Reshape', [merged, g.int64Vector([0, 0, inner])]);
}
