import { writeRandomCheckpoint, type RandomTensor } from './random-checkpoint.js';

/** Sizes of a TimesFM 2.0 checkpoint to generate. google/timesfm-2.0-500m-pytorch: hidden 1280, 50 layers, 16 heads × 80, intermediate 1280, context 2048. */
export interface TimesFm20Shape {
  hidden: number;
  layers: number;
  heads: number;
  headDim: number;
  intermediate: number;
  context: number;
}

/** The real model's sizes (~500 M parameters, 2 GB in float32): too big for the shared 2-core box. */
export const TIMESFM_20_500M: TimesFm20Shape = { hidden: 1280, layers: 50, heads: 16, headDim: 80, intermediate: 1280, context: 2048 };
/** The bench's scaled shape: the real width, 4 of 50 layers, context 512 (46 M parameters). */
export const TIMESFM_20_BENCH: TimesFm20Shape = { hidden: 1280, layers: 4, heads: 16, headDim: 80, intermediate: 1280, context: 512 };

const HORIZON = 128;
const QUANTILES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

/** Every tensor of a TimesFM 2.0 checkpoint (transformers' layout): name → [shape, init (fan-in for weights, 0 ones, -1 small bias)]. */
export function timesFm20Tensors(s: TimesFm20Shape): Array<[string, number[], number]> {
  const out: Array<[string, number[], number]> = [['decoder.freq_emb.weight', [3, s.hidden], 1]];
  const lin = (p: string, o: number, i: number): void => {
    out.push([`${p}.weight`, [o, i], i], [`${p}.bias`, [o], -1]);
  };
  const residual = (p: string, i: number, o: number): void => {
    lin(`${p}.input_layer`, s.intermediate, i);
    lin(`${p}.output_layer`, o, s.intermediate);
    lin(`${p}.residual_layer`, o, i);
  };
  residual('decoder.input_ff_layer', 64, s.hidden);
  const qkv = s.heads * s.headDim;
  for (let l = 0; l < s.layers; l++) {
    const p = `decoder.layers.${l}`;
    out.push([`${p}.input_layernorm.weight`, [s.hidden], 0], [`${p}.self_attn.scaling`, [s.headDim], -1]);
    lin(`${p}.self_attn.q_proj`, qkv, s.hidden);
    lin(`${p}.self_attn.k_proj`, qkv, s.hidden);
    lin(`${p}.self_attn.v_proj`, qkv, s.hidden);
    lin(`${p}.self_attn.o_proj`, s.hidden, qkv);
    out.push([`${p}.mlp.layer_norm.weight`, [s.hidden], 0], [`${p}.mlp.layer_norm.bias`, [s.hidden], -1]);
    lin(`${p}.mlp.gate_proj`, s.intermediate, s.hidden);
    lin(`${p}.mlp.down_proj`, s.hidden, s.intermediate);
  }
  residual('horizon_ff_layer', s.hidden, HORIZON * (QUANTILES.length + 1));
  return out;
}

/**
 * Writes a random-weight TimesFM 2.0 checkpoint of `s` (config.json + model.safetensors, float32) into `dir`,
 * one tensor at a time (seeded, so the same shape gives the same bytes).
 */
export function writeTimesFm20Checkpoint(dir: string, s: TimesFm20Shape): void {
  writeCheckpoint(dir, {
    architectures: ['TimesFmModelForPrediction'], model_type: 'timesfm', context_length: s.context, horizon_length: HORIZON, patch_length: 32, freq_size: 3,
    hidden_size: s.hidden, intermediate_size: s.intermediate, num_hidden_layers: s.layers, num_attention_heads: s.heads, head_dim: s.headDim,
    quantiles: QUANTILES, pad_val: 1123581321.0, tolerance: 1e-6, rms_norm_eps: 1e-6, use_positional_embedding: false,
  }, timesFm20Tensors(s));
}

/** Every tensor of a TimesFM 2.5 checkpoint (transformers 5.18's file names) of the same sizes; quantile head 1024 steps. */
export function timesFm25Tensors(s: TimesFm20Shape): Array<[string, number[], number]> {
  const out: Array<[string, number[], number]> = [];
  const lin = (p: string, o: number, i: number, bias: boolean): void => {
    out.push([`${p}.weight`, [o, i], i], ...(bias ? [[`${p}.bias`, [o], -1] as [string, number[], number]] : []));
  };
  const residual = (p: string, i: number, o: number, bias: boolean): void => {
    lin(`${p}.input_layer`, s.hidden, i, bias);
    lin(`${p}.output_layer`, o, s.hidden, bias);
    lin(`${p}.residual_layer`, o, i, bias);
  };
  residual('model.input_ff_layer', 64, s.hidden, true);
  const qkv = s.heads * s.headDim;
  for (let l = 0; l < s.layers; l++) {
    const p = `model.layers.${l}`;
    for (const n of ['input_layernorm', 'post_attention_layernorm', 'pre_feedforward_layernorm', 'post_feedforward_layernorm']) {
      out.push([`${p}.${n}.weight`, [s.hidden], 0]);
    }
    out.push([`${p}.self_attn.q_norm.weight`, [s.headDim], 0], [`${p}.self_attn.k_norm.weight`, [s.headDim], 0], [`${p}.self_attn.scaling`, [s.headDim], -1]);
    for (const w of ['q_proj', 'k_proj', 'v_proj']) {
      lin(`${p}.self_attn.${w}`, qkv, s.hidden, false);
    }
    lin(`${p}.self_attn.o_proj`, s.hidden, qkv, false);
    lin(`${p}.mlp.ff0`, s.intermediate, s.hidden, false);
    lin(`${p}.mlp.ff1`, s.hidden, s.intermediate, false);
  }
  residual('output_projection_point', s.hidden, HORIZON * (QUANTILES.length + 1), false);
  residual('output_projection_quantiles', s.hidden, 1024 * (QUANTILES.length + 1), false);
  return out;
}

/** Writes a random-weight TimesFM 2.5 checkpoint of `s` into `dir` (see {@link writeTimesFm20Checkpoint}). */
export function writeTimesFm25Checkpoint(dir: string, s: TimesFm20Shape): void {
  writeCheckpoint(dir, {
    architectures: ['TimesFm2_5ModelForPrediction'], model_type: 'timesfm2_5', context_length: s.context, horizon_length: HORIZON, patch_length: 32,
    hidden_size: s.hidden, intermediate_size: s.intermediate, num_hidden_layers: s.layers, num_attention_heads: s.heads, num_key_value_heads: s.heads, head_dim: s.headDim,
    quantiles: QUANTILES, output_quantile_len: 1024, decode_index: 5, rms_norm_eps: 1e-6, activation: 'swish', rope_parameters: { rope_theta: 10000, rope_type: 'default' },
    use_continuous_quantile_head: true, force_flip_invariance: true, infer_is_positive: true,
  }, timesFm25Tensors(s));
}

/** Parameters of a tensor list. */
export function parameterCount(tensors: ReadonlyArray<[string, number[], number]>): number {
  return tensors.reduce((n, [, shape]) => n + shape.reduce((a, b) => a * b, 1), 0);
}

/** TimesFM's init convention (fan-in > 0: variance 1/fan-in; 0: norm weights around 1; < 0: biases around 0) as fills. */
function writeCheckpoint(dir: string, config: Record<string, unknown>, tensors: ReadonlyArray<[string, number[], number]>): void {
  const noise = 0.2 / Math.sqrt(12);
  const fills: RandomTensor[] = tensors.map(([name, shape, init]) => [name, shape, init > 0 ? 1 / Math.sqrt(init) : { mean: init === 0 ? 1 : 0, std: noise }]);
  writeRandomCheckpoint(dir, config, fills, { seed: 20261126 });
}
