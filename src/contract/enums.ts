import { z } from 'zod';

/** Canonical frequency names, as the reference implementation writes them (lower-case long names). */
export const FREQUENCIES = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
/** A canonical frequency. */
export type Frequency = (typeof FREQUENCIES)[number];

/** Short alias of each frequency (`T` is minute, as in pandas and the interface). */
export const FREQUENCY_ALIASES: Readonly<Record<string, Frequency>> = {
  S: 'second',
  T: 'minute',
  H: 'hour',
  D: 'day',
  W: 'week',
  M: 'month',
  Q: 'quarter',
  Y: 'year',
};

/** Looks up a frequency by long name or short alias, in any letter case; undefined if unknown. */
export function normalizeFrequency(value: string): Frequency | undefined {
  const alias = FREQUENCY_ALIASES[value.toUpperCase()];
  if (alias) {
    return alias;
  }
  const long = value.toLowerCase();
  return (FREQUENCIES as readonly string[]).includes(long) ? (long as Frequency) : undefined;
}

/** Frequency on the wire: long name or short alias in any case, normalised to the lower-case long name. */
export const FrequencySchema = z.string().transform((v, ctx) => {
  const f = normalizeFrequency(v);
  if (f) {
    return f;
  }
  ctx.addIssue({
    code: 'custom',
    message: `unknown frequency "${v}"; expected one of ${FREQUENCIES.join(', ')} or ${Object.keys(FREQUENCY_ALIASES).join(', ')}`,
  });
  return z.NEVER;
});

/**
 * Frequency in a forecast answer: checked like {@link FrequencySchema} but kept as the server wrote
 * it, since KServe (and inferkit's server) echo the caller's spelling (`"M"` stays `"M"`).
 */
export const FrequencyEchoSchema = z.string().refine((v) => normalizeFrequency(v) !== undefined, {
  error: (issue) => `unknown frequency ${JSON.stringify(issue.input)}; expected one of ${FREQUENCIES.join(', ')} or ${Object.keys(FREQUENCY_ALIASES).join(', ')}`,
});

/** A case-insensitive string enum normalised to lower case. */
function lowerEnum<const T extends readonly [string, ...string[]]>(values: T, what: string) {
  return z.string().transform((v, ctx) => {
    const l = v.toLowerCase();
    if ((values as readonly string[]).includes(l)) {
      return l as T[number];
    }
    ctx.addIssue({ code: 'custom', message: `unknown ${what} "${v}"; expected one of ${values.join(', ')}` });
    return z.NEVER;
  });
}

/** Status values as produced on the wire (lower case, like the reference implementation). */
export const STATUSES = ['completed', 'error', 'pending', 'partial'] as const;
/** Status of a forecast response or output. */
export type Status = (typeof STATUSES)[number];
/** Status: accepted in any letter case, produced lower case. */
export const StatusSchema = lowerEnum(STATUSES, 'status');

/** Kinds of series a forecast input can hold. */
export const TIME_SERIES_TYPES = ['univariate_time_series', 'multivariate_time_series'] as const;
/** `univariate_time_series` or `multivariate_time_series`. */
export type TimeSeriesType = (typeof TIME_SERIES_TYPES)[number];
/** TimeSeriesType: accepted in any letter case, produced lower case. */
export const TimeSeriesTypeSchema = lowerEnum(TIME_SERIES_TYPES, 'time series type');
