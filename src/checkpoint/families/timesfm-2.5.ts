import { InferkitError } from '../../errors.js';
import { attr, OnnxGraphBuilder } from '../../onnx/graph-builder.js';
import type { GraphBuilderEntry } from '../builders.js';
import type { Checkpoint } from '../safetensors.js';
import { activate, activationOf, attend, causalPaddingMask, expectOutputs, lastPatch, linear, positions, queryScale, residualBlock, rmsNorm, splitHeads, type TimesFmContext } from './timesfm/blocks.js';
import { checkShape, parseTimesFmConfig, ropeTheta, TimesFm25ConfigSchema } from './timesfm/config.js';

/**
 * TimesFM 2.5 (transformers' `TimesFm2_5ModelForPrediction`) from its checkpoint.
 *
 * Inputs: `patches` float32 [batch, time] — each patch already normalised by the running mean/std of the
 * series up to it, padded positions 0 (see runtime/forecast/timesfm: the global RevIN, the running statistics
 * and the flipped copy are TypeScript); `padding` float32 [batch, time] (1 = padded). Outputs, both
 * [batch, horizon_length, 1 + quantiles] in the last patch's normalised space: `point` (the point head) and
 * `quantile_spread` (the first horizon_length steps of the continuous quantile head; its later steps are
 * never read, so their weights are left out of the graph).
 *
 * Graph: patches ⊕ padding → input residual block → layers of (RMSNorm → attention: q/k/v → RoPE (positions
 * = patch index − padded patches) → per-head RMSNorm of q and k → per-dimension query scale → causal
 * softmax, padded patches hidden as keys → o_proj → RMSNorm → + residual; RMSNorm → MLP → RMSNorm →
 * + residual) → last patch → both heads. Leading all-padding patches change nothing.
 */
export function buildTimesFm25(ck: Checkpoint): OnnxGraphBuilder {
  const source = ck.dir;
  const c = parseTimesFmConfig(TimesFm25ConfigSchema, ck.config, source);
  checkShape(c, source);
  if ((c.num_key_value_heads ?? c.num_attention_heads) !== c.num_attention_heads) {
    throw new InferkitError('model_load_failed', `${source}: config.json num_key_value_heads ${c.num_key_value_heads} ≠ num_attention_heads ${c.num_attention_heads}; inferkit builds TimesFM 2.5 without grouped keys`, { param: 'num_key_value_heads' });
  }
  const act = activationOf(c.activation, source);
  const P = c.patch_length;
  const D = c.hidden_size;
  const heads = c.num_attention_heads;
  const hd = c.head_dim;
  const H = c.horizon_length;
  const outCols = c.quantiles.length + 1;
  const eps = c.rms_norm_eps;
  const g = new OnnxGraphBuilder({ name: 'timesfm_2_5', opset: 17 });
  const ctx: TimesFmContext = { g, ck };

  const values = g.input('patches', 'float32', ['batch', 'time']);
  const padding = g.input('padding', 'float32', ['batch', 'time']);
  const toPatches = g.int64Vector([0, -1, P]);
  const pads = g.op('Reshape', [padding, toPatches]);
  const features = g.op('Concat', [g.op('Reshape', [values, toPatches]), pads], { axis: attr.int(-1) });
  let x = residualBlock(ctx, features, 'model.input_ff_layer', act);

  // A patch is padding when its last position is; RoPE positions count from the first real patch.
  const patchPad = g.op('Gather', [pads, g.int64('last_position', [P - 1], [])], { axis: attr.int(2) });
  const pos = positions(g, patchPad);
  const mask = causalPaddingMask(g, patchPad, pos);
  const ropePos = g.op('Sub', [g.op('Unsqueeze', [pos, g.int64Vector([0])]), g.op('ReduceSum', [patchPad, g.int64Vector([1])], { keepdims: attr.int(1) })]);
  const invFreq = Float32Array.from({ length: hd / 2 }, (_, i) => 1 / Math.pow(ropeTheta(c), (2 * i) / hd));
  const angles = g.op('Mul', [g.op('Unsqueeze', [ropePos, g.int64Vector([2])]), g.float32('rope_inv_freq', invFreq)]);
  const full = g.op('Unsqueeze', [g.op('Concat', [angles, angles], { axis: attr.int(-1) }), g.int64Vector([1])]);
  const cos = g.op('Cos', [full]);
  const sin = g.op('Sin', [full]);
  const rope = (t: string): string => {
    const first = g.op('Slice', [t, g.int64Vector([0]), g.int64Vector([hd / 2]), g.int64Vector([3])]);
    const second = g.op('Slice', [t, g.int64Vector([hd / 2]), g.int64Vector([hd]), g.int64Vector([3])]);
    const rotated = g.op('Concat', [g.op('Neg', [second]), first], { axis: attr.int(-1) });
    return g.op('Add', [g.op('Mul', [t, cos]), g.op('Mul', [rotated, sin])]);
  };

  for (let i = 0; i < c.num_hidden_layers; i++) {
    const p = `model.layers.${i}`;
    const h = rmsNorm(ctx, x, `${p}.input_layernorm.weight`, D, eps);
    const q0 = rmsNorm(ctx, rope(splitHeads(g, linear(ctx, h, `${p}.self_attn.q_proj`), heads, hd)), `${p}.self_attn.q_norm.weight`, hd, eps);
    const q = g.op('Mul', [q0, queryScale(ctx, `${p}.self_attn.scaling`, hd)]);
    const k = rmsNorm(ctx, rope(splitHeads(g, linear(ctx, h, `${p}.self_attn.k_proj`), heads, hd)), `${p}.self_attn.k_norm.weight`, hd, eps);
    const v = splitHeads(g, linear(ctx, h, `${p}.self_attn.v_proj`), heads, hd);
    const attn = linear(ctx, attend(g, q, k, v, mask, heads * hd), `${p}.self_attn.o_proj`);
    x = g.op('Add', [rmsNorm(ctx, attn, `${p}.post_attention_layernorm.weight`, D, eps), x]);

    const [up, down] = mlpNames(ck, `${p}.mlp`);
    const inner = activate(g, linear(ctx, rmsNorm(ctx, x, `${p}.pre_feedforward_layernorm.weight`, D, eps), up), act);
    x = g.op('Add', [rmsNorm(ctx, linear(ctx, inner, down), `${p}.post_feedforward_layernorm.weight`, D, eps), x]);
  }
  const last = lastPatch(g, x);
  expectOutputs(ck, 'output_projection_point.output_layer', H * outCols, 'horizon_length × (1 + quantiles)');
  expectOutputs(ck, 'output_projection_quantiles.output_layer', H * outCols, 'horizon_length × (1 + quantiles)');
  const shape = g.int64Vector([0, H, outCols]);
  g.op('Reshape', [residualBlock(ctx, last, 'output_projection_point', act), shape], {}, 'point');
  g.op('Reshape', [residualBlock(ctx, last, 'output_projection_quantiles', act, H * outCols), shape], {}, 'quantile_spread');
  g.output('point', 'float32', ['batch', H, outCols]);
  g.output('quantile_spread', 'float32', ['batch', H, outCols]);
  return g;
}

/** The MLP's two Linear prefixes: `ff0`/`ff1` as transformers 5.18 writes the file, `fc1`/`fc2` as it names them in memory. */
function mlpNames(ck: Checkpoint, prefix: string): [string, string] {
  return ck.has(`${prefix}.ff0.weight`) ? [`${prefix}.ff0`, `${prefix}.ff1`] : [`${prefix}.fc1`, `${prefix}.fc2`];
}

/** The GRAPH_BUILDERS entry of `timesfm-2.5` (fp32 only). */
export const TIMESFM_25_BUILDER: GraphBuilderEntry = { version: 1, build: (ck) => buildTimesFm25(ck) };
