import { z } from 'zod';
import { InferkitError } from '../../../errors.js';

const positive = z.number().int().positive();
const levels = z.array(z.number().gt(0).lt(1)).min(1);

/**
 * The `config.json` fields of a TimesFM 2.0 checkpoint (transformers' `TimesFmConfig`, the layout of
 * `google/timesfm-2.0-500m-pytorch`) that inferkit reads; semantic fields default as in transformers.
 */
export const TimesFm20ConfigSchema = z.object({
  patch_length: positive.default(32),
  context_length: positive.default(512),
  horizon_length: positive.default(128),
  freq_size: positive.default(3),
  quantiles: levels.default([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]),
  pad_val: z.number().default(1123581321.0),
  tolerance: z.number().positive().default(1e-6),
  hidden_size: positive,
  intermediate_size: positive,
  num_hidden_layers: positive,
  num_attention_heads: positive,
  head_dim: positive,
  rms_norm_eps: z.number().positive().default(1e-6),
  use_positional_embedding: z.literal(false, { message: 'inferkit builds TimesFM 2.0 without positional embeddings only (use_positional_embedding: false, as google/timesfm-2.0-500m-pytorch)' }).default(false),
});
/** A parsed TimesFM 2.0 config. */
export type TimesFm20Config = z.output<typeof TimesFm20ConfigSchema>;

const RopeSchema = z.object({
  rope_theta: z.number().positive().default(10000),
  rope_type: z.literal('default', { message: 'inferkit builds the default RoPE only' }).default('default'),
});

/** The `config.json` fields of a TimesFM 2.5 checkpoint (transformers' `TimesFm2_5Config`) that inferkit reads. */
export const TimesFm25ConfigSchema = z.object({
  patch_length: positive.default(32),
  context_length: positive.default(16384),
  horizon_length: positive.default(128),
  quantiles: levels.default([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]),
  output_quantile_len: positive.default(1024),
  decode_index: z.number().int().nonnegative().default(5),
  hidden_size: positive,
  intermediate_size: positive,
  num_hidden_layers: positive,
  num_attention_heads: positive,
  num_key_value_heads: positive.optional(),
  head_dim: positive,
  rms_norm_eps: z.number().positive().default(1e-6),
  activation: z.string().default('swish'),
  rope_parameters: RopeSchema.optional(),
  rope_theta: z.number().positive().optional(),
  use_continuous_quantile_head: z.boolean().default(true),
  force_flip_invariance: z.boolean().default(true),
  infer_is_positive: z.boolean().default(true),
});
/** A parsed TimesFM 2.5 config. */
export type TimesFm25Config = z.output<typeof TimesFm25ConfigSchema>;

/** Parses `config` with `schema`; a bad field is a `model_load_failed` naming it (param = the field). */
export function parseTimesFmConfig<S extends z.ZodType>(schema: S, config: unknown, source: string): z.output<S> {
  const parsed = schema.safeParse(config);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const field = first.path.join('.');
    const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new InferkitError('model_load_failed', `${source}: config.json is not a TimesFM config inferkit builds (${why})`, { param: field || undefined });
  }
  return parsed.data;
}

/** The check both families share: the context is whole patches. */
export function checkShape(c: { context_length: number; patch_length: number }, source: string): void {
  if (c.context_length % c.patch_length !== 0) {
    throw new InferkitError('model_load_failed', `${source}: config.json context_length ${c.context_length} is not a multiple of patch_length ${c.patch_length}`, { param: 'context_length' });
  }
}

/** RoPE base of a 2.5 config (`rope_parameters.rope_theta`, else the older top-level `rope_theta`, else 10000). */
export function ropeTheta(c: TimesFm25Config): number {
  return c.rope_parameters?.rope_theta ?? c.rope_theta ?? 10000;
}
