import { InferkitError } from '../../../errors.js';
import { attr, type OnnxGraphBuilder } from '../../../onnx/graph-builder.js';
import type { Checkpoint } from '../../safetensors.js';

/** What every encoder op needs: the graph, the checkpoint it reads, and whether MatMul weights are int8. */
export interface CheckpointOps {
  g: OnnxGraphBuilder;
  ck: Checkpoint;
  /**
   * Dynamic int8 MatMul weights, quantized at build time: int8 per output column (symmetric, zero point 0),
   * activations `DynamicQuantizeLinear` → `MatMulInteger` → rescale (ORT fuses it into one kernel).
   */
  int8: boolean;
}

/** The first of `names` the checkpoint holds (old BERT checkpoints say `gamma`/`beta` for `weight`/`bias`). */
export function tensorName(ck: Checkpoint, names: readonly string[]): string {
  const hit = names.find((n) => ck.has(n));
  if (hit === undefined) {
    throw new InferkitError('model_load_failed', `${ck.dir}: the checkpoint has no tensor ${names.join(' or ')}`, { param: names[0] });
  }
  return hit;
}

/** A tensor's shape, checked against `shape` (a mismatch names the tensor and both shapes). */
export function checkedShape(ck: Checkpoint, name: string, shape: readonly number[]): readonly number[] {
  const got = ck.info(name).shape;
  if (got.length !== shape.length || got.some((d, i) => d !== shape[i])) {
    throw new InferkitError('model_load_failed', `${ck.dir}: tensor ${name} has shape [${got.join(', ')}], the config asks for [${shape.join(', ')}]`, { param: name });
  }
  return got;
}

/** A checkpoint tensor as a lazy float32 initializer of the same shape (read when the graph is written). */
export function weight(ops: CheckpointOps, name: string, shape: readonly number[]): string {
  checkedShape(ops.ck, name, shape);
  return ops.g.lazyFloat32(name, shape, () => ops.ck.float32(name, shape));
}

/** Row `row` of a [rows, cols] checkpoint tensor, as a lazy [cols] initializer. */
export function weightRow(ops: CheckpointOps, name: string, rows: number, cols: number, row: number): string {
  checkedShape(ops.ck, name, [rows, cols]);
  return ops.g.lazyFloat32(`${name}.row${row}`, [cols], () => ops.ck.float32(name, [rows, cols]).slice(row * cols, (row + 1) * cols));
}

/** PyTorch's Linear weight [out, in] as MatMul's [in, out]. */
export function transposed(w: Float32Array, out: number, inDim: number): Float32Array {
  const t = new Float32Array(w.length);
  for (let o = 0; o < out; o++) {
    const row = o * inDim;
    for (let i = 0; i < inDim; i++) {
      t[i * out + o] = w[row + i];
    }
  }
  return t;
}

/**
 * `x @ W^T + b` of the checkpoint's Linear `prefix` (`<prefix>.weight` [out, in], `<prefix>.bias` [out]),
 * the weight pre-transposed at build time (no Transpose at run time); int8 when `ops.int8`.
 */
export function linear(ops: CheckpointOps, x: string, prefix: string, inDim: number, outDim: number): string {
  const { g, ck } = ops;
  const wName = `${prefix}.weight`;
  checkedShape(ck, wName, [outDim, inDim]);
  const bias = weight(ops, `${prefix}.bias`, [outDim]);
  if (!ops.int8) {
    const w = g.lazyFloat32(`${wName}.T`, [inDim, outDim], () => transposed(ck.float32(wName, [outDim, inDim]), outDim, inDim));
    return g.op('Add', [g.op('MatMul', [x, w]), bias]);
  }
  const { q, scales } = quantizeColumns(transposed(ck.float32(wName, [outDim, inDim]), outDim, inDim), inDim, outDim);
  const wq = g.int8(`${wName}.quantized`, q, [inDim, outDim]);
  const wZero = g.int8(`${wName}.zero_point`, new Int8Array(outDim), [outDim]);
  const wScale = g.float32(`${wName}.scale`, scales, [outDim]);
  const [xq, xScale, xZero] = g.node('DynamicQuantizeLinear', [x], {}, 3);
  const product = g.op('MatMulInteger', [xq, wq, xZero, wZero]);
  const rescaled = g.op('Mul', [g.op('Cast', [product], { to: attr.int(1) }), g.op('Mul', [xScale, wScale])]);
  return g.op('Add', [rescaled, bias]);
}

/** Symmetric int8 per column of a row-major [rows, cols] matrix: `w ≈ q * scale[col]`. */
export function quantizeColumns(w: Float32Array, rows: number, cols: number): { q: Int8Array; scales: Float32Array } {
  const scales = new Float32Array(cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      scales[c] = Math.max(scales[c], Math.abs(w[r * cols + c]));
    }
  }
  for (let c = 0; c < cols; c++) {
    scales[c] = scales[c] > 0 ? scales[c] / 127 : 1;
  }
  const q = new Int8Array(w.length);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      q[r * cols + c] = Math.max(-127, Math.min(127, Math.round(w[r * cols + c] / scales[c])));
    }
  }
  return { q, scales };
}

/** LayerNormalization over the last axis with the checkpoint's `<prefix>.weight|gamma` and `<prefix>.bias|beta`. */
export function layerNorm(ops: CheckpointOps, x: string, prefix: string, dim: number, epsilon: number): string {
  const gamma = weight(ops, tensorName(ops.ck, [`${prefix}.weight`, `${prefix}.gamma`]), [dim]);
  const beta = weight(ops, tensorName(ops.ck, [`${prefix}.bias`, `${prefix}.beta`]), [dim]);
  return ops.g.op('LayerNormalization', [x, gamma, beta], { axis: attr.int(-1), epsilon: attr.float(epsilon) });
}

/** The activations of transformers' `ACT2FN` that encoders use; another name fails naming it. */
export const ACTIVATIONS = ['gelu', 'relu', 'gelu_new', 'gelu_pytorch_tanh', 'gelu_fast'] as const;

/** `act(x)`: erf GELU (ORT fuses it into one Gelu kernel), ReLU, or the tanh approximation. */
export function activation(g: OnnxGraphBuilder, x: string, name: string, source: string): string {
  if (name === 'gelu') {
    // Div by √2 (not Mul by 1/√2): the form ORT's GeluFusion matches (then BiasGelu with the Linear's bias).
    const erf = g.op('Erf', [g.op('Div', [x, g.floatScalar(Math.SQRT2)])]);
    return g.op('Mul', [g.op('Mul', [x, g.op('Add', [erf, g.floatScalar(1)])]), g.floatScalar(0.5)]);
  }
  if (name === 'relu') {
    return g.op('Relu', [x]);
  }
  if (name === 'gelu_new' || name === 'gelu_pytorch_tanh' || name === 'gelu_fast') {
    // 0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³)))
    const cube = g.op('Mul', [g.op('Mul', [x, x]), x]);
    const inner = g.op('Mul', [g.op('Add', [x, g.op('Mul', [cube, g.floatScalar(0.044715)])]), g.floatScalar(Math.sqrt(2 / Math.PI))]);
    return g.op('Mul', [g.op('Mul', [x, g.op('Add', [g.op('Tanh', [inner]), g.floatScalar(1)])]), g.floatScalar(0.5)]);
  }
  throw new InferkitError('model_load_failed', `${source}: activation ${JSON.stringify(name)} is not one inferkit builds (${ACTIVATIONS.join(', ')})`, { param: 'hidden_act' });
}
