/**
 * Random-weight checkpoints gpu-bench builds graphs from that no other bench generates: Chronos-2 (T5-style
 * encoder with time and group attention). Written with the benches' one random-checkpoint writer (streamed,
 * seeded). The RoBERTa / XLM-R writers are in ../lib/roberta-checkpoint.ts (server-limit uses them too).
 */
import { writeRandomCheckpoint, type RandomTensor } from '../lib/random-checkpoint.js';

/** Sizes of a Chronos-2 checkpoint. amazon/chronos-2: d_model 768, 12 layers, 12 heads × 64, d_ff 3072, context 8192, 21 quantiles. */
export interface Chronos2Shape {
  dModel: number;
  layers: number;
  heads: number;
  dFF: number;
  contextLength: number;
}

/** amazon/chronos-2's sizes (~120 M parameters). */
export const CHRONOS_2_BASE: Chronos2Shape = { dModel: 768, layers: 12, heads: 12, dFF: 3072, contextLength: 8192 };

const PATCH = 16;
const Q21 = [0.01, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.99];

/** Every tensor of a Chronos-2 checkpoint of `s` (the layout of the conformance checkpoint): name → [shape, fan-in (0 = ones, -1 = zeros)]. */
export function chronos2Tensors(s: Chronos2Shape): Array<[string, number[], number]> {
  const d = s.dModel;
  const out: Array<[string, number[], number]> = [['shared.weight', [2, d], d]];
  const residual = (p: string, inDim: number, outDim: number): void => {
    for (const [layer, o, i] of [['hidden_layer', s.dFF, inDim], ['output_layer', outDim, s.dFF], ['residual_layer', outDim, inDim]] as const) {
      out.push([`${p}.${layer}.weight`, [o, i], i], [`${p}.${layer}.bias`, [o], -1]);
    }
  };
  residual('input_patch_embedding', 3 * PATCH, d);
  for (let b = 0; b < s.layers; b++) {
    const p = `encoder.block.${b}.layer`;
    for (const a of ['0', '1']) {
      out.push([`${p}.${a}.layer_norm.weight`, [d], 0]);
      for (const w of ['q', 'k', 'v', 'o']) {
        out.push([`${p}.${a}.self_attention.${w}.weight`, [d, d], d]);
      }
    }
    out.push([`${p}.2.layer_norm.weight`, [d], 0], [`${p}.2.mlp.wi.weight`, [s.dFF, d], d], [`${p}.2.mlp.wo.weight`, [d, s.dFF], s.dFF]);
  }
  out.push(['encoder.final_layer_norm.weight', [d], 0]);
  residual('output_patch_embedding', d, Q21.length * PATCH);
  return out;
}

/** Writes a random Chronos-2 checkpoint of `s` (uniform, variance 1/fan-in; norm weights 1, biases 0) into `dir`. Returns the weights' bytes. */
export function writeChronos2Checkpoint(dir: string, s: Chronos2Shape): number {
  const config = {
    architectures: ['Chronos2Model'], model_type: 't5',
    chronos_config: {
      context_length: s.contextLength, input_patch_size: PATCH, input_patch_stride: PATCH, output_patch_size: PATCH, max_output_patches: 64,
      quantiles: Q21, time_encoding_scale: s.contextLength, use_arcsinh: true, use_reg_token: true,
    },
    d_model: s.dModel, d_kv: s.dModel / s.heads, d_ff: s.dFF, num_layers: s.layers, num_heads: s.heads, feed_forward_proj: 'relu',
    dense_act_fn: 'relu', is_gated_act: false, layer_norm_epsilon: 1e-6, rope_theta: 10000, pad_token_id: 0, reg_token_id: 1, vocab_size: 2,
  };
  const fills: RandomTensor[] = chronos2Tensors(s).map(([name, shape, fanIn]) => [name, shape, fanIn > 0 ? 1 / Math.sqrt(fanIn) : fanIn === 0 ? 'ones' : 'zeros']);
  return writeRandomCheckpoint(dir, config, fills, { seed: 2 });
}
