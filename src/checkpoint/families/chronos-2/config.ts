import { z } from 'zod';
import { InferkitError } from '../../../errors.js';
import { BOLT_ACTIVATIONS, type BoltActivation } from '../chronos-bolt/bolt-config.js';

/** `chronos_config` of a Chronos-2 `config.json` (Chronos2ForecastingConfig: every field it has; others are refused). */
export const Chronos2ForecastingConfigSchema = z.strictObject({
  context_length: z.number().int().positive(),
  output_patch_size: z.number().int().positive(),
  input_patch_size: z.number().int().positive(),
  input_patch_stride: z.number().int().positive(),
  quantiles: z.array(z.number().gt(0).lt(1)).min(1),
  use_reg_token: z.boolean().default(false),
  use_arcsinh: z.boolean().default(false),
  max_output_patches: z.number().int().positive().default(1),
  time_encoding_scale: z.number().int().positive().nullable().optional(),
});

/** The Chronos2CoreConfig fields the graph depends on (the rest — dropout, initializer … — does not change it). */
export const Chronos2ConfigSchema = z.looseObject({
  chronos_config: Chronos2ForecastingConfigSchema,
  d_model: z.number().int().positive().default(512),
  d_kv: z.number().int().positive().default(64),
  d_ff: z.number().int().positive().default(2048),
  num_layers: z.number().int().positive().default(6),
  num_heads: z.number().int().positive().default(8),
  layer_norm_epsilon: z.number().positive().default(1e-6),
  feed_forward_proj: z.string().default('relu'),
  rope_theta: z.number().positive().default(10000),
});

/** A parsed Chronos-2 config. */
export interface Chronos2Config {
  contextLength: number;
  patchSize: number;
  maxOutputPatches: number;
  quantiles: readonly number[];
  useRegToken: boolean;
  useArcsinh: boolean;
  timeEncodingScale: number;
  dModel: number;
  heads: number;
  dKv: number;
  dFF: number;
  layers: number;
  epsilon: number;
  ropeTheta: number;
  activation: BoltActivation;
}

/**
 * Reads a Chronos-2 `config.json` (Chronos2CoreConfig + `chronos_config`). `model_load_failed` names the field
 * for a missing or malformed value, an unknown `chronos_config` field, patches that differ in size or overlap,
 * a gated feed-forward (the reference refuses it too) or an activation the builder does not write.
 */
export function parseChronos2Config(raw: Record<string, unknown>, source: string): Chronos2Config {
  const parsed = Chronos2ConfigSchema.safeParse(raw);
  const fail = (field: string, why: string): never => {
    throw new InferkitError('model_load_failed', `${source}: config.json ${field}: ${why}`, { param: field });
  };
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
    const field = [...issue.path, ...keys.slice(0, 1)].join('.');
    return fail(field, keys.length > 0 ? 'a field the Chronos-2 builder does not know' : issue.message);
  }
  const c = parsed.data;
  const cc = c.chronos_config;
  if (cc.input_patch_size !== cc.output_patch_size) {
    fail('chronos_config.output_patch_size', `${cc.output_patch_size} differs from input_patch_size ${cc.input_patch_size} (Chronos-2 needs them equal)`);
  }
  if (cc.input_patch_stride !== cc.input_patch_size) {
    fail('chronos_config.input_patch_stride', `${cc.input_patch_stride} differs from input_patch_size ${cc.input_patch_size}; the builder writes non-overlapping patches only`);
  }
  const proj = c.feed_forward_proj.split('-');
  if (proj[0] === 'gated') {
    fail('feed_forward_proj', `"${c.feed_forward_proj}": gated feed-forwards are not part of Chronos-2`);
  }
  const act = proj[proj.length - 1];
  if (!(BOLT_ACTIVATIONS as readonly string[]).includes(act)) {
    fail('feed_forward_proj', `"${act}" is not an activation the builder writes (${BOLT_ACTIVATIONS.join(', ')})`);
  }
  return {
    contextLength: cc.context_length,
    patchSize: cc.input_patch_size,
    maxOutputPatches: cc.max_output_patches,
    quantiles: cc.quantiles,
    useRegToken: cc.use_reg_token,
    useArcsinh: cc.use_arcsinh,
    timeEncodingScale: cc.time_encoding_scale ?? cc.context_length,
    dModel: c.d_model,
    heads: c.num_heads,
    dKv: c.d_kv,
    dFF: c.d_ff,
    layers: c.num_layers,
    epsilon: c.layer_norm_epsilon,
    ropeTheta: c.rope_theta,
    activation: act as BoltActivation,
  };
}
