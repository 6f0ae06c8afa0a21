import { InferkitError } from '../../errors.js';
import { attr, OnnxGraphBuilder } from '../../onnx/graph-builder.js';
import type { GraphBuilderEntry } from '../builders.js';
import type { Checkpoint } from '../safetensors.js';
import { attend, expectOutputs, causalPaddingMask, lastPatch, linear, positions, queryScale, residualBlock, rmsNorm, splitHeads, type TimesFmContext } from './timesfm/blocks.js';
import { checkShape, parseTimesFmConfig, TimesFm20ConfigSchema } from './timesfm/config.js';

/**
 * TimesFM 2.0 (transformers' `TimesFmModelForPrediction`, the layout KServe loads) from its checkpoint.
 *
 * Inputs: `patches` float32 [batch, time] — the series already scaled by its statistics (the first patch
 * with at least 3 real values; see runtime/forecast/timesfm) with padded positions 0, time a multiple of
 * `patch_length`, left-padded; `padding` float32 [batch, time] (1 = padded); `freq` int64 [batch] (0, 1, 2).
 * Output: `forecast` float32 [batch, horizon_length, 1 + quantiles] in the scaled space (column 0 the mean
 * head, then the quantile heads), step-major as the reference reshapes it.
 *
 * Graph: patches ⊕ padding → input residual block (SiLU) + freq_emb[freq] → layers of (RMSNorm → causal
 * attention with per-dimension query scale, padded patches hidden as keys → + residual; LayerNorm → ReLU MLP,
 * zeroed on padded patches → + residual) → last patch → horizon residual block. No position embedding, so
 * leading all-padding patches change nothing and rows need only be padded to the longest in their run.
 */
export function buildTimesFm20(ck: Checkpoint): OnnxGraphBuilder {
  const source = ck.dir;
  const c = parseTimesFmConfig(TimesFm20ConfigSchema, ck.config, source);
  checkShape(c, source);
  if (c.freq_size < 3) {
    throw new InferkitError('model_load_failed', `${source}: config.json freq_size ${c.freq_size} < 3: KServe's frequency map sends indices 0, 1 and 2`, { param: 'freq_size' });
  }
  const P = c.patch_length;
  const D = c.hidden_size;
  const heads = c.num_attention_heads;
  const hd = c.head_dim;
  const outCols = c.quantiles.length + 1;
  const g = new OnnxGraphBuilder({ name: 'timesfm_2_0', opset: 17 });
  const ctx: TimesFmContext = { g, ck };

  const values = g.input('patches', 'float32', ['batch', 'time']);
  const padding = g.input('padding', 'float32', ['batch', 'time']);
  const freq = g.input('freq', 'int64', ['batch']);
  const toPatches = g.int64Vector([0, -1, P]);
  const pads = g.op('Reshape', [padding, toPatches]);
  const features = g.op('Concat', [g.op('Reshape', [values, toPatches]), pads], { axis: attr.int(-1) });
  const freqEmb = g.lazyFloat32('decoder.freq_emb.weight', [c.freq_size, D], () => ck.float32('decoder.freq_emb.weight', [c.freq_size, D]));
  let x = g.op('Add', [
    residualBlock(ctx, features, 'decoder.input_ff_layer', 'silu'),
    g.op('Unsqueeze', [g.op('Gather', [freqEmb, freq], { axis: attr.int(0) }), g.int64Vector([1])]),
  ]);

  // A patch is padding for attention only when all its positions are.
  const patchPad = g.op('ReduceMin', [pads], { axes: attr.ints([2]), keepdims: attr.int(0) });
  const mask = causalPaddingMask(g, patchPad, positions(g, patchPad));
  const keep = g.op('Unsqueeze', [g.op('Sub', [g.floatScalar(1), patchPad]), g.int64Vector([2])]);

  for (let i = 0; i < c.num_hidden_layers; i++) {
    const p = `decoder.layers.${i}`;
    const h = rmsNorm(ctx, x, `${p}.input_layernorm.weight`, D, c.rms_norm_eps);
    const scale = queryScale(ctx, `${p}.self_attn.scaling`, hd);
    const q = splitHeads(g, g.op('Mul', [g.op('Reshape', [linear(ctx, h, `${p}.self_attn.q_proj`), g.int64Vector([0, 0, heads, hd])]), scale]), heads, hd);
    const k = splitHeads(g, linear(ctx, h, `${p}.self_attn.k_proj`), heads, hd);
    const v = splitHeads(g, linear(ctx, h, `${p}.self_attn.v_proj`), heads, hd);
    x = g.op('Add', [x, linear(ctx, attend(g, q, k, v, mask, heads * hd), `${p}.self_attn.o_proj`)]);

    const lnW = g.lazyFloat32(`${p}.mlp.layer_norm.weight`, [D], () => ck.float32(`${p}.mlp.layer_norm.weight`, [D]));
    const lnB = g.lazyFloat32(`${p}.mlp.layer_norm.bias`, [D], () => ck.float32(`${p}.mlp.layer_norm.bias`, [D]));
    const normed = g.op('LayerNormalization', [x, lnW, lnB], { axis: attr.int(-1), epsilon: attr.float(1e-6) });
    const gate = g.op('Relu', [linear(ctx, normed, `${p}.mlp.gate_proj`)]);
    x = g.op('Add', [g.op('Mul', [linear(ctx, gate, `${p}.mlp.down_proj`), keep]), x]);
  }
  expectOutputs(ck, 'horizon_ff_layer.output_layer', c.horizon_length * outCols, 'horizon_length × (1 + quantiles)');
  const out = residualBlock(ctx, lastPatch(g, x), 'horizon_ff_layer', 'silu');
  g.op('Reshape', [out, g.int64Vector([0, c.horizon_length, outCols])], {}, 'forecast');
  g.output('forecast', 'float32', ['batch', c.horizon_length, outCols]);
  return g;
}

/** The GRAPH_BUILDERS entry of `timesfm-2.0` (fp32 only). */
export const TIMESFM_20_BUILDER: GraphBuilderEntry = { version: 1, build: (ck) => buildTimesFm20(ck) };
