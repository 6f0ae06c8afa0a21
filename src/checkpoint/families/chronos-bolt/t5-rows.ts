import { attr, type OnnxGraphBuilder } from '../../../onnx/graph-builder.js';
import type { BoltActivation } from './bolt-config.js';
import { activation, expectShape, vector, type T5Context } from './t5-layers.js';

// T5 blocks on 2-D activations [rows, width] (rows = batch·seq): every projection is one Gemm with `transB`
// on the checkpoint's own [out, in] weight, so building the graph copies weights without transposing them.

/**
 * PyTorch Linear weights [out_k, in] (no bias) stacked as one Gemm weight [Σ out_k, in] (used with
 * `transB`, so nothing is transposed: each tensor's bytes are copied as they are), read lazily (one
 * checkpoint tensor at a time when the graph is written).
 */
export function linearWeight(t: T5Context, graphName: string, names: readonly string[], inDim: number, outDims: readonly number[]): string {
  names.forEach((n, k) => expectShape(t.ck, n, [outDims[k], inDim]));
  const total = outDims.reduce((a, b) => a + b, 0);
  if (names.length === 1) {
    return t.g.lazyFloat32(graphName, [total, inDim], () => t.ck.float32(names[0], [total, inDim]));
  }
  return t.g.lazyFloat32(graphName, [total, inDim], () => {
    const out = new Float32Array(total * inDim);
    let row = 0;
    names.forEach((n, k) => {
      out.set(t.ck.float32(n, [outDims[k], inDim]), row * inDim);
      row += outDims[k];
    });
    return out;
  });
}

/** `x W^T (+ b)`: x [rows, in] (2-D), w from {@link linearWeight}; one Gemm (ORT prepacks the constant weight). */
export function gemm(g: OnnxGraphBuilder, x: string, w: string, bias?: string): string {
  return g.op('Gemm', bias === undefined ? [x, w] : [x, w, bias], { transB: attr.int(1) });
}

/** `x W^T + b` of a PyTorch Linear `prefix` ({weight [out, in], bias [out]}), x [rows, in]. */
export function linearRows(t: T5Context, x: string, prefix: string, inDim: number, outDim: number): string {
  return gemm(t.g, x, linearWeight(t, `${prefix}.weight`, [`${prefix}.weight`], inDim, [outDim]), vector(t, `${prefix}.bias`, outDim));
}

/** T5's feed-forward `prefix` (DenseReluDense / DenseGatedActDense, no biases) on x [rows, d_model]: `wo(act(wi x))` or `wo(act(wi_0 x) · wi_1 x)`. */
export function feedForwardRows(t: T5Context, x: string, prefix: string, dims: { dModel: number; dFF: number; act: BoltActivation; gated: boolean }): string {
  const { g } = t;
  const { dModel, dFF } = dims;
  let inner: string;
  if (dims.gated) {
    const w = linearWeight(t, `${prefix}.wi`, [`${prefix}.wi_0.weight`, `${prefix}.wi_1.weight`], dModel, [dFF, dFF]);
    const [gate, up] = g.node('Split', [gemm(g, x, w), g.int64Vector([dFF, dFF])], { axis: attr.int(-1) }, 2);
    inner = g.op('Mul', [activation(g, gate, dims.act), up]);
  } else {
    inner = activation(g, gemm(g, x, linearWeight(t, `${prefix}.wi.weight`, [`${prefix}.wi.weight`], dModel, [dFF])), dims.act);
  }
  return gemm(g, inner, linearWeight(t, `${prefix}.wo.weight`, [`${prefix}.wo.weight`], dFF, [dModel]));
}

/**
 * x [batch·seq, heads·dKv] → [batch, heads, seq, dKv] (or [batch, heads, dKv, seq] with `keys`);
 * `bySeq` = int64 [4] `[-1, seq, heads, dKv]`, computed once per sequence.
 */
export function splitHeadsBy(g: OnnxGraphBuilder, x: string, bySeq: string, keys = false): string {
  return g.op('Transpose', [g.op('Reshape', [x, bySeq])], { perm: attr.ints(keys ? [0, 2, 3, 1] : [0, 2, 1, 3]) });
}

/**
 * T5 attention core (no 1/√d scaling: T5 folds it into its weights): `softmax(q kᵀ + bias) v`, q
 * [batch, heads, seq, dKv], kT [batch, heads, dKv, keys], v [batch, heads, keys, dKv], bias broadcast to
 * [batch, heads, seq, keys]; returns [batch·seq, heads·dKv].
 */
export function attendRows(g: OnnxGraphBuilder, q: string, kT: string, v: string, bias: string, inner: number): string {
  const probs = g.op('Softmax', [g.op('Add', [g.op('MatMul', [q, kT]), bias])], { axis: attr.int(-1) });
  const merged = g.op('Transpose', [g.op('MatMul', [probs, v])], { perm: attr.ints([0, 2, 1, 3]) });
  return g.op('Reshape', [merged, g.int64Vector([-1, inner])]);
}
