import { z } from 'zod';
import { FrequencyEchoSchema, FrequencySchema, StatusSchema, TimeSeriesTypeSchema } from './enums.js';
import { IsoTimestampSchema } from './timestamp.js';

/** True when `v` survives the float32 conversion every model makes (|v| ≤ 3.4028235e38). */
const fitsFloat32 = (v: number): boolean => Number.isFinite(Math.fround(v));

/** Why `v` is no observation (a finite number within float32 range, or null), or undefined. */
function observationProblem(v: unknown): string | undefined {
  if (v === null) {
    return undefined;
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    const what = Array.isArray(v) ? 'a list (multivariate data in a univariate_time_series)' : JSON.stringify(v);
    return `expected a finite number or null, got ${what}`;
  }
  return fitsFloat32(v) ? undefined : `expected a value within float32 range (±3.4028235e38), got ${v}`;
}

/** One observation: a finite number within float32 range, or `null` for a missing value. */
const ObservationSchema = z
  .number()
  .refine(Number.isFinite, { message: 'expected a finite number' })
  .refine(fitsFloat32, { message: 'expected a value within float32 range (±3.4028235e38)' })
  .nullable();

/** Univariate series: one value per time step (null = missing). */
export const UnivariateSeriesSchema = z.array(ObservationSchema);
/** Multivariate series: time first, one row of variables per time step. */
export const MultivariateSeriesSchema = z.array(z.array(ObservationSchema));
/** `List[float]` (univariate) or `List[List[float]]` (multivariate, time first). */
export const TimeSeriesSchema = z.union([UnivariateSeriesSchema, MultivariateSeriesSchema]);
/** A series as carried on the wire. */
export type TimeSeries = z.infer<typeof TimeSeriesSchema>;

/**
 * Covariates of one input (inferkit extension): covariate name → univariate series, one value per step
 * (null = missing). See {@link TimeSeriesInputSchema} for the lengths.
 */
export const CovariatesSchema = z.record(z.string().min(1, 'expected a non-empty covariate name'), z.array(ObservationSchema));
/** Covariates as carried on the wire: name → values. */
export type Covariates = z.output<typeof CovariatesSchema>;

/**
 * One series to forecast. `series` must match `type`: univariate is a list of numbers; multivariate is a
 * rectangular list of lists (time first, at least one variable). Extra fields are kept.
 *
 * Covariates (inferkit extension, Chronos-2's and statsforecast's exogenous inputs): `past_covariates` maps
 * each covariate's name to its history, one value per step of `series` (same length); `future_covariates`
 * maps the known-future ones to their values over the forecast horizon (exactly `options.horizon` values,
 * checked by {@link ForecastRequestSchema}); a future covariate also needs its history in `past_covariates`.
 * A covariate present only in `past_covariates` is past-only. Wrong lengths are 400s naming the field
 * (`inputs[0].past_covariates.temp`).
 */
export const TimeSeriesInputSchema = z
  .looseObject({
    type: TimeSeriesTypeSchema,
    name: z.string().min(1, 'expected a non-empty name'),
    series: z.array(z.unknown()),
    frequency: FrequencySchema,
    start_timestamp: IsoTimestampSchema.optional(),
    past_covariates: CovariatesSchema.optional(),
    future_covariates: CovariatesSchema.optional(),
  })
  .superRefine((input, ctx) => {
    const { series } = input;
    if (series.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['series'], message: 'expected at least one observation' });
      return;
    }
    for (const [name, values] of Object.entries(input.past_covariates ?? {})) {
      if (values.length !== series.length) {
        ctx.addIssue({ code: 'custom', path: ['past_covariates', name], message: `expected ${series.length} values (one per step of series), got ${values.length}` });
      }
    }
    for (const name of Object.keys(input.future_covariates ?? {})) {
      if (input.past_covariates?.[name] === undefined) {
        ctx.addIssue({ code: 'custom', path: ['future_covariates', name], message: `covariate "${name}" has no history: give its ${series.length} past values in past_covariates too` });
      }
    }
    if (input.type === 'univariate_time_series') {
      series.forEach((v, t) => {
        const problem = observationProblem(v);
        if (problem !== undefined) {
          ctx.addIssue({ code: 'custom', path: ['series', t], message: problem });
        }
      });
      return;
    }
    const width = Array.isArray(series[0]) ? series[0].length : -1;
    if (width < 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['series', 0],
        message: 'expected a non-empty list of variables per time step (multivariate series are time first)',
      });
      return;
    }
    series.forEach((row, t) => {
      if (!Array.isArray(row)) {
        ctx.addIssue({ code: 'custom', path: ['series', t], message: 'expected a list of variables (multivariate)' });
      } else if (row.length !== width) {
        ctx.addIssue({
          code: 'custom',
          path: ['series', t],
          message: `expected ${width} variables like series[0], got ${row.length} (series must be rectangular)`,
        });
      } else {
        row.forEach((v, j) => {
          const problem = observationProblem(v);
          if (problem !== undefined) {
            ctx.addIssue({ code: 'custom', path: ['series', t, j], message: problem.replace(/ \(multivariate data in a univariate_time_series\)/, '') });
          }
        });
      }
    });
  })
  .transform((input) => ({ ...input, series: input.series as TimeSeries }));
/** A validated forecast input. */
export type TimeSeriesInput = z.output<typeof TimeSeriesInputSchema>;

/**
 * How steps beyond a model's native horizon are forecast (inferkit extension, `options.rollout`):
 * `quantiles` = every quantile path is appended to the context and the pooled forecasts are reduced
 * back to the model's levels (the Chronos-Bolt pipeline's way); `median` = only the point path is
 * appended (cheaper: 1 series per step instead of one per level).
 */
export const ForecastRolloutSchema = z.enum(['quantiles', 'median'], { message: 'expected rollout "quantiles" or "median"' });
/** A rollout mode. */
export type ForecastRollout = z.output<typeof ForecastRolloutSchema>;

/**
 * Forecast options: `horizon` steps, optional quantile levels in (0, 1), optional interval `level`s
 * in percent (inferkit extension, statsforecast's `level`: 80 → quantiles 0.1 and 0.9, see
 * {@link forecastQuantileLevels}), optional `rollout`. Extra fields are kept and not checked, as the
 * contract allows them for forward compatibility: a misspelt `quantile` is accepted and ignored (the
 * answer has no quantiles). {@link ForecastOptionsInput}, the type callers write, catches it at compile time.
 */
export const ForecastOptionsSchema = z.looseObject({
  horizon: z.number().int('expected an integer horizon').positive('expected a positive horizon'),
  quantiles: z
    .array(z.number().gt(0, 'expected a quantile level in (0, 1)').lt(1, 'expected a quantile level in (0, 1)'))
    .optional(),
  level: z
    .array(z.number().gt(0, 'expected a level in percent in (0, 100)').lt(100, 'expected a level in percent in (0, 100)'))
    .optional(),
  rollout: ForecastRolloutSchema.optional(),
});
/** Validated forecast options (extra fields kept, so any field name reads as `unknown`); to write options, use {@link ForecastOptionsInput}. */
export type ForecastOptions = z.output<typeof ForecastOptionsSchema>;

/**
 * Forecast options as a caller writes them: `horizon`, `quantiles`, `level`, `rollout` and nothing else, so
 * `{ horizon: 12, quantile: [0.5] }` does not compile. Extra fields: see {@link ForecastRequestInput}.
 */
// The schema's input with its declared fields only: a `$strip` object's input has no index signature (a loose
// one's has), while the schema itself still accepts and keeps extra fields at runtime.
export type ForecastOptionsInput = z.input<z.ZodObject<typeof ForecastOptionsSchema.shape, z.core.$strip>>;

/** The two quantile levels of a central interval of `level` percent: 80 → [0.1, 0.9], 95 → [0.025, 0.975]. */
export function intervalQuantiles(level: number): [number, number] {
  const lo = Number(((100 - level) / 200).toFixed(12));
  return [lo, Number((1 - lo).toFixed(12))];
}

/**
 * The quantile levels a forecast answers under `quantiles`: `options.quantiles` as given when there
 * is no `level`; else those and both ends of each level's interval, distinct and ascending;
 * undefined when neither is asked for.
 */
export function forecastQuantileLevels(options: Pick<ForecastOptions, 'quantiles' | 'level'>): number[] | undefined {
  if (options.level === undefined) {
    return options.quantiles;
  }
  const all = [...(options.quantiles ?? []), ...options.level.flatMap(intervalQuantiles)];
  return [...new Set(all)].sort((a, b) => a - b);
}

/** Arbitrary user metadata (request tracking), echoed back. */
export const MetadataSchema = z.record(z.string(), z.unknown());

/** A forecast request. Input names must be unique. Extra fields (`other_properties`, …) are kept. */
export const ForecastRequestSchema = z
  .looseObject({
    model: z.string().min(1, 'expected the name of the model'),
    inputs: z.array(TimeSeriesInputSchema).min(1, 'expected at least one input series'),
    options: ForecastOptionsSchema,
    metadata: MetadataSchema.optional(),
    other_properties: z.unknown().optional(),
  })
  .superRefine((req, ctx) => {
    const seen = new Map<string, number>();
    req.inputs.forEach((input, i) => {
      for (const [name, values] of Object.entries(input.future_covariates ?? {})) {
        if (values.length !== req.options.horizon) {
          ctx.addIssue({ code: 'custom', path: ['inputs', i, 'future_covariates', name], message: `expected ${req.options.horizon} values (one per step of options.horizon), got ${values.length}` });
        }
      }
      const first = seen.get(input.name);
      if (first === undefined) {
        seen.set(input.name, i);
      } else {
        ctx.addIssue({
          code: 'custom',
          path: ['inputs', i, 'name'],
          message: `duplicate name "${input.name}" (also inputs[${first}].name); names must be unique`,
        });
      }
    });
  });
/** A validated forecast request (enums normalised). */
export type ForecastRequest = z.output<typeof ForecastRequestSchema>;

/**
 * Fields inferkit's frame functions add to a forecast input (not in the contract; kept on the wire and echoed
 * onto the input's forecast, not checked): `frameToInputs` sets them, `forecastToFrame` and the charts read them.
 */
// A type literal, not an interface: a series carrying these fields still reads as a `Record<string, unknown>`.
export type TimeSeriesInputExtensions = {
  /** Names of a multivariate series' variables (its value columns), in order. */
  variables?: string[];
  /**
   * IANA time zone the series' timestamps are written in (`"Europe/Berlin"`), across DST changes; the forecast's
   * day-and-longer steps are counted on its local calendar (local midnight stays local midnight).
   */
  time_zone?: string;
};

/**
 * A forecast request as a caller writes it (enums in any case), with the declared fields only — at the top
 * level, in each input (plus {@link TimeSeriesInputExtensions}) and in `options` — so a misspelt field in an
 * object literal (`options: { horizon: 12, quantile: [0.5] }`) is a compile error instead of being sent and
 * ignored.
 *
 * Extra fields are still part of the contract (forward compatibility) and are sent and kept: request-level
 * data goes in `metadata` or `other_properties` (both echoed). Any other field is sent when it comes in an
 * object typed elsewhere — `const options = { horizon: 12, seed: 7 }`, then `{ model, inputs, options }` —
 * since TypeScript rejects unknown fields only in an object literal written in place.
 */
export type ForecastRequestInput = Omit<z.input<z.ZodObject<typeof ForecastRequestSchema.shape, z.core.$strip>>, 'inputs' | 'options'> & {
  inputs: TimeSeriesInputFields[];
  options: ForecastOptionsInput;
};

/** One forecast input as a caller writes it: the contract's declared fields and {@link TimeSeriesInputExtensions}. */
export type TimeSeriesInputFields = z.input<z.ZodObject<typeof TimeSeriesInputSchema.in.shape, z.core.$strip>> & TimeSeriesInputExtensions;

/** The error object of the forecast API. */
export const ApiErrorSchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  param: z.string().nullable().optional(),
  type: z.string(),
});
/** An error as carried in a forecast response. */
export type ApiError = z.output<typeof ApiErrorSchema>;

/** One forecast: the mean path and, when asked for, a map from quantile level (as string) to path. */
export const TimeSeriesForecastSchema = z.looseObject({
  type: TimeSeriesTypeSchema,
  name: z.string(),
  mean_forecast: TimeSeriesSchema,
  frequency: FrequencyEchoSchema,
  start_timestamp: IsoTimestampSchema,
  quantiles: z.record(z.string(), TimeSeriesSchema).optional(),
});
/** A forecast for one series. */
export type TimeSeriesForecast = z.output<typeof TimeSeriesForecastSchema>;

/**
 * Something a model did not use or changed in an input that still got its forecast (inferkit extension): e.g.
 * `covariates_ignored` (param `inputs[i].past_covariates`) from a model that cannot read covariates.
 */
export const ForecastWarningSchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  param: z.string().nullable().optional(),
});
/** A warning on one forecast output. */
export type ForecastWarning = z.output<typeof ForecastWarningSchema>;

/** One output per input, with its own status and error, and `warnings` (inferkit extension) when there are any. */
export const ForecastOutputSchema = z.looseObject({
  type: z.literal('time_series_forecast'),
  id: z.string(),
  status: StatusSchema,
  content: z.array(TimeSeriesForecastSchema),
  error: ApiErrorSchema.nullable().optional(),
  warnings: z.array(ForecastWarningSchema).optional(),
});
/** The result for one input. */
export type ForecastOutput = z.output<typeof ForecastOutputSchema>;

/** Usage, counted in patches for patch-based models. */
export const UsageSchema = z.looseObject({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative(),
});
/** Usage counters. */
export type Usage = z.output<typeof UsageSchema>;

/** A forecast response: top-level status and error, one output per input, usage. Extra fields are kept. */
export const ForecastResponseSchema = z.looseObject({
  id: z.string(),
  created_at: z.number().int(),
  status: StatusSchema,
  error: ApiErrorSchema.nullable().optional(),
  model: z.string(),
  outputs: z.array(ForecastOutputSchema),
  usage: UsageSchema.optional(),
});
/** A validated forecast response. */
export type ForecastResponse = z.output<typeof ForecastResponseSchema>;
