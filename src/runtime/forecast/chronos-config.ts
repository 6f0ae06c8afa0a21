import { z } from 'zod';

/** The `chronos_config` block of a Chronos-Bolt `config.json` (extra fields kept). */
export const ChronosConfigSchema = z.looseObject({
  context_length: z.number().int().positive(),
  prediction_length: z.number().int().positive(),
  quantiles: z.array(z.number().gt(0).lt(1)).min(1),
  input_patch_size: z.number().int().positive().default(16),
});
/** Chronos-Bolt settings read from `config.json`. */
export type ChronosConfig = z.output<typeof ChronosConfigSchema>;

/** A Chronos-Bolt `config.json`: only `chronos_config` is read. */
export const ChronosModelConfigSchema = z.looseObject({ chronos_config: ChronosConfigSchema });
