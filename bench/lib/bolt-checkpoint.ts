import { writeRandomCheckpoint, type RandomTensor } from './random-checkpoint.js';

/** Sizes of a Chronos-Bolt checkpoint to generate. chronos-bolt-base: d_model 768, 12 + 12 layers, 12 heads, d_ff 3072, context 2048, horizon 64. */
export interface BoltCheckpointShape {
  dModel: number;
  layers: number;
  heads: number;
  dFF: number;
  contextLength: number;
  predictionLength: number;
}

/** amazon/chronos-bolt-base's sizes (~205 M parameters). */
export const BOLT_BASE: BoltCheckpointShape = { dModel: 768, layers: 12, heads: 12, dFF: 3072, contextLength: 2048, predictionLength: 64 };
/** A small shape for `--quick` runs. */
export const BOLT_QUICK: BoltCheckpointShape = { dModel: 256, layers: 4, heads: 4, dFF: 1024, contextLength: 512, predictionLength: 64 };

const Q9 = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
const PATCH = 16;

/** Every tensor of a Chronos-Bolt checkpoint of `s`, in the T5 layout `save_pretrained` writes: name → [shape, fan-in (0 = norm weight, ones)]. */
export function boltTensors(s: BoltCheckpointShape): [string, number[], number][] {
  const d = s.dModel;
  const out: [string, number[], number][] = [['shared.weight', [2, d], d]];
  const lin = (name: string, o: number, i: number): void => void out.push([`${name}.weight`, [o, i], i]);
  const norm = (name: string): void => void out.push([name, [d], 0]);
  const residual = (p: string, inDim: number, outDim: number): void => {
    for (const [layer, o, i] of [['hidden_layer', s.dFF, inDim], ['output_layer', outDim, s.dFF], ['residual_layer', outDim, inDim]] as const) {
      lin(`${p}.${layer}`, o, i);
      out.push([`${p}.${layer}.bias`, [o], -1]);
    }
  };
  residual('input_patch_embedding', 2 * PATCH, d);
  for (const stack of ['encoder', 'decoder'] as const) {
    for (let b = 0; b < s.layers; b++) {
      const p = `${stack}.block.${b}.layer`;
      const attns = stack === 'encoder' ? ['0.SelfAttention'] : ['0.SelfAttention', '1.EncDecAttention'];
      attns.forEach((a, k) => {
        for (const w of ['q', 'k', 'v']) {
          lin(`${p}.${a}.${w}`, d, d);
        }
        lin(`${p}.${a}.o`, d, d);
        if (b === 0 && k === 0) {
          out.push([`${p}.${a}.relative_attention_bias.weight`, [32, s.heads], 1]);
        }
        norm(`${p}.${k}.layer_norm.weight`);
      });
      const ff = `${p}.${attns.length}`;
      lin(`${ff}.DenseReluDense.wi`, s.dFF, d);
      lin(`${ff}.DenseReluDense.wo`, d, s.dFF);
      norm(`${ff}.layer_norm.weight`);
    }
    norm(`${stack}.final_layer_norm.weight`);
  }
  residual('output_patch_embedding', d, Q9.length * s.predictionLength);
  return out;
}

/**
 * Writes (once; reused when `dir` is complete) a Chronos-Bolt checkpoint of shape `s` with random F32
 * weights (uniform, variance 1/fan-in; norm weights 1, biases 0) — `config.json` + `model.safetensors` —
 * streaming one tensor at a time. Returns the weights' bytes.
 */
export function writeBoltCheckpoint(dir: string, s: BoltCheckpointShape, seed = 1): number {
  const config = {
    architectures: ['ChronosBoltModelForForecasting'],
    model_type: 't5',
    chronos_config: { context_length: s.contextLength, input_patch_size: PATCH, input_patch_stride: PATCH, prediction_length: s.predictionLength, quantiles: Q9, use_reg_token: true },
    d_model: s.dModel, d_kv: s.dModel / s.heads, d_ff: s.dFF, num_layers: s.layers, num_decoder_layers: s.layers, num_heads: s.heads,
    feed_forward_proj: 'relu', dense_act_fn: 'relu', is_gated_act: false, layer_norm_epsilon: 1e-6,
    relative_attention_num_buckets: 32, relative_attention_max_distance: 128, decoder_start_token_id: 0, vocab_size: 2,
  };
  const fills: RandomTensor[] = boltTensors(s).map(([name, shape, fanIn]) => [name, shape, fanIn > 0 ? 1 / Math.sqrt(fanIn) : fanIn === 0 ? 'ones' : 'zeros']);
  return writeRandomCheckpoint(dir, config, fills, { seed });
}
