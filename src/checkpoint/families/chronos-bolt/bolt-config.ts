import { z } from 'zod';
import { InferkitError } from '../../../errors.js';

/** `chronos_config` of a Chronos-Bolt `config.json` as the graph builder reads it (every field it knows; others are refused). */
export const BoltChronosConfigSchema = z.strictObject({
  context_length: z.number().int().positive(),
  prediction_length: z.number().int().positive(),
  input_patch_size: z.number().int().positive(),
  input_patch_stride: z.number().int().positive(),
  quantiles: z.array(z.number().gt(0).lt(1)).min(1),
  use_reg_token: z.boolean().default(false),
});

/** The T5 fields of a Chronos-Bolt `config.json` the graph depends on (the rest of a T5 config is ignored). */
export const BoltConfigSchema = z.looseObject({
  chronos_config: BoltChronosConfigSchema,
  d_model: z.number().int().positive(),
  d_kv: z.number().int().positive(),
  d_ff: z.number().int().positive(),
  num_layers: z.number().int().positive(),
  num_decoder_layers: z.number().int().positive().optional(),
  num_heads: z.number().int().positive(),
  relative_attention_num_buckets: z.number().int().min(4).default(32),
  relative_attention_max_distance: z.number().int().positive().default(128),
  layer_norm_epsilon: z.number().positive().default(1e-6),
  feed_forward_proj: z.string().default('relu'),
  dense_act_fn: z.string().optional(),
  is_gated_act: z.boolean().optional(),
  decoder_start_token_id: z.number().int().nonnegative().default(0),
});

/** A parsed Chronos-Bolt config: the T5 stack's sizes and the forecasting head's settings. */
export interface BoltConfig {
  contextLength: number;
  predictionLength: number;
  patchSize: number;
  quantiles: readonly number[];
  useRegToken: boolean;
  dModel: number;
  heads: number;
  dKv: number;
  dFF: number;
  encoderLayers: number;
  decoderLayers: number;
  buckets: number;
  maxDistance: number;
  epsilon: number;
  /** Activation of the feed-forward and the two residual blocks. */
  activation: BoltActivation;
  /** `gated-*` feed-forward (`wi_0`, `wi_1`) instead of `wi`. */
  gated: boolean;
  decoderStartTokenId: number;
  /** Row of `shared.weight` appended as the [REG] token (ChronosBoltModelForForecasting sets it to 1, whatever the config says). */
  regTokenId: number;
}

/** Activations the builder writes (transformers' ACT2FN names). */
export const BOLT_ACTIVATIONS = ['relu', 'gelu', 'gelu_new', 'gelu_pytorch_tanh'] as const;
/** One of {@link BOLT_ACTIVATIONS}. */
export type BoltActivation = (typeof BOLT_ACTIVATIONS)[number];

/**
 * Reads a Chronos-Bolt `config.json` (T5Config + `chronos_config`). `model_load_failed` names the field for
 * a missing or malformed value, an unknown `chronos_config` field, a patch stride other than the patch size,
 * a `context_length` that is not a multiple of it, or an activation the builder does not write.
 */
export function parseBoltConfig(raw: Record<string, unknown>, source: string): BoltConfig {
  const parsed = BoltConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
    const field = [...issue.path, ...keys.slice(0, 1)].join('.');
    const what = keys.length > 0 ? `${keys.map((k) => [...issue.path, k].join('.')).join(', ')}: a field the Chronos-Bolt builder does not know` : issue.message;
    throw new InferkitError('model_load_failed', `${source}: config.json ${field}: ${what}`, { param: field });
  }
  const c = parsed.data;
  const cc = c.chronos_config;
  const fail = (field: string, why: string): never => {
    throw new InferkitError('model_load_failed', `${source}: config.json ${field}: ${why}`, { param: field });
  };
  if (cc.input_patch_stride !== cc.input_patch_size) {
    fail('chronos_config.input_patch_stride', `${cc.input_patch_stride} differs from input_patch_size ${cc.input_patch_size}; the builder writes non-overlapping patches only`);
  }
  if (cc.context_length % cc.input_patch_size !== 0) {
    fail('chronos_config.context_length', `${cc.context_length} is not a multiple of input_patch_size ${cc.input_patch_size}`);
  }
  const proj = c.feed_forward_proj.split('-');
  const gated = proj[0] === 'gated' && proj.length === 2;
  const activation = c.dense_act_fn ?? (gated ? proj[1] : c.feed_forward_proj);
  const act = activation === 'gelu' && gated ? 'gelu_new' : activation; // T5's "gated-gelu" means gelu_new
  if (!(BOLT_ACTIVATIONS as readonly string[]).includes(act) || (proj.length > 1 && !gated)) {
    fail(c.dense_act_fn !== undefined ? 'dense_act_fn' : 'feed_forward_proj', `"${activation}" is not an activation the builder writes (${BOLT_ACTIVATIONS.join(', ')}; gated-… too)`);
  }
  if (c.is_gated_act !== undefined && c.is_gated_act !== gated) {
    fail('is_gated_act', `${c.is_gated_act} contradicts feed_forward_proj "${c.feed_forward_proj}"`);
  }
  return {
    contextLength: cc.context_length,
    predictionLength: cc.prediction_length,
    patchSize: cc.input_patch_size,
    quantiles: cc.quantiles,
    useRegToken: cc.use_reg_token,
    dModel: c.d_model,
    heads: c.num_heads,
    dKv: c.d_kv,
    dFF: c.d_ff,
    encoderLayers: c.num_layers,
    decoderLayers: c.num_decoder_layers ?? c.num_layers,
    buckets: c.relative_attention_num_buckets,
    maxDistance: c.relative_attention_max_distance,
    epsilon: c.layer_norm_epsilon,
    activation: act as BoltActivation,
    gated,
    decoderStartTokenId: c.decoder_start_token_id,
    regTokenId: 1,
  };
}
