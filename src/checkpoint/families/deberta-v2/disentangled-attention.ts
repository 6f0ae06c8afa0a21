import { attr } from '../../../onnx/graph-builder.js';
import { linear, transposed, weight, type CheckpointOps } from '../encoder/checkpoint-ops.js';

/** Tensor-name prefixes of one DeBERTa-v2 attention block (Linear prefixes, without `.weight`). */
export interface DisentangledNames {
  query: string;
  key: string;
  value: string;
  /** Separate position projections (`share_att_key` false); with `share_att_key` the content ones are reused. */
  posQuery?: string;
  posKey?: string;
}

/** What every layer's attention shares: the position terms, the relative embeddings and their index tables. */
export interface RelativeContext {
  c2p: boolean;
  p2c: boolean;
  /** Normalised relative embeddings `[2·span, hidden]`. */
  rel: string;
  span: number;
  /** int64 `[1]`: the rows `[lo, hi)` of the relative embeddings this sequence length reads (short texts read few). */
  window: { lo: string; hi: string };
  /** int64 `[batch, heads, seq, seq]` embedding rows of c2p and p2c (see relativeIndexTables), minus `window.lo`. */
  c2pIndex: string;
  p2cIndex: string;
}

/**
 * DeBERTa's disentangled self-attention (before the output Linear): `softmax((c2c + c2p + p2c) / √(d·k) + mask) · V`,
 * k = 1 + the number of position terms. c2p = Qᵢ · PosK[c2pIndex(i−j)], p2c = Kⱼ · PosQ[p2cIndex(j−i)]. The scale is
 * folded into Q and into PosQ (constant, so ORT folds it at session start); the gathers are GatherElements on the
 * `[batch, heads, seq, window]` products, the window being the relative rows this sequence length reads. Returns `[batch, seq, hidden]`.
 */
export function disentangledAttention(
  ops: CheckpointOps,
  x: string,
  mask: string,
  names: DisentangledNames,
  dims: { hidden: number; heads: number },
  relative: RelativeContext | undefined,
): string {
  const { g } = ops;
  const { hidden, heads } = dims;
  const headDim = hidden / heads;
  const terms = 1 + (relative?.c2p === true ? 1 : 0) + (relative?.p2c === true ? 1 : 0);
  const inverseScale = g.floatScalar(1 / Math.sqrt(headDim * terms));
  const split = g.int64Vector([0, 0, heads, headDim]);
  const heads4 = (y: string, perm: number[]): string => g.op('Transpose', [g.op('Reshape', [y, split])], { perm: attr.ints(perm) });
  const q = g.op('Mul', [heads4(linear(ops, x, names.query, hidden, hidden), [0, 2, 1, 3]), inverseScale]);
  const kProjected = linear(ops, x, names.key, hidden, hidden);
  const v = heads4(linear(ops, x, names.value, hidden, hidden), [0, 2, 1, 3]);
  let scores = g.op('MatMul', [q, heads4(kProjected, [0, 2, 3, 1])]);
  if (relative !== undefined && (relative.c2p || relative.p2c)) {
    const { rel, span } = relative;
    // [2·span, hidden] → [heads, headDim, 2·span] (constant: folded at session start) → the window's columns.
    const positions = (prefix: string, contentBuilt: boolean): string => {
      const all = g.op('Transpose', [g.op('Reshape', [positionProjection(ops, rel, prefix, hidden, contentBuilt), g.int64Vector([2 * span, heads, headDim])])], { perm: attr.ints([1, 2, 0]) });
      return g.op('Slice', [all, relative.window.lo, relative.window.hi, g.int64Vector([2])]);
    };
    const gathered = (product: string, index: string): string => g.op('GatherElements', [product, index], { axis: attr.int(-1) });
    const parts: string[] = [scores];
    if (relative.c2p) {
      const posKey = positions(names.posKey ?? names.key, names.posKey === undefined);
      parts.push(gathered(g.op('MatMul', [q, posKey]), relative.c2pIndex));
    }
    if (relative.p2c) {
      const posQuery = g.op('Mul', [positions(names.posQuery ?? names.query, names.posQuery === undefined), inverseScale]);
      const k = heads4(kProjected, [0, 2, 1, 3]);
      const byKey = gathered(g.op('MatMul', [k, posQuery]), relative.p2cIndex);
      parts.push(g.op('Transpose', [byKey], { perm: attr.ints([0, 1, 3, 2]) }));
    }
    // Pairwise Adds, not one variadic Sum: onnxruntime's WebGPU provider has no Sum kernel, and a Sum on the CPU
    // copies three [batch, heads, seq, seq] score tensors off the GPU and back in every layer (DeBERTa-v3-base ran at 1.0× the CPU).
    scores = parts.slice(1).reduce((sum, part) => g.op('Add', [sum, part]), parts[0]);
  }
  const probs = g.op('Softmax', [g.op('Add', [scores, mask])], { axis: attr.int(-1) });
  const context = g.op('Transpose', [g.op('MatMul', [probs, v])], { perm: attr.ints([0, 2, 1, 3]) });
  return g.op('Reshape', [context, g.int64Vector([0, 0, hidden])]);
}

/**
 * `rel @ W^T + b` of the Linear `prefix` in fp32 (also in the int8 graph: the product is constant, ORT folds it at
 * session start). With `contentBuilt` the content projection of the same Linear was built by `linear()`, which names
 * its fp32 weight `<prefix>.weight.T` and its bias `<prefix>.bias`: those initializers are reused, not copied.
 */
function positionProjection(ops: CheckpointOps, rel: string, prefix: string, hidden: number, contentBuilt: boolean): string {
  const { g, ck } = ops;
  const wName = `${prefix}.weight`;
  const w = contentBuilt && !ops.int8 ? `${wName}.T` : g.lazyFloat32(`${wName}.T`, [hidden, hidden], () => transposed(ck.float32(wName, [hidden, hidden]), hidden, hidden));
  const bias = contentBuilt ? `${prefix}.bias` : weight(ops, `${prefix}.bias`, [hidden]);
  return g.op('Add', [g.op('MatMul', [rel, w]), bias]);
}
