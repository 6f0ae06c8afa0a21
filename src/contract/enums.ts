import { z } from 'zod';
import { FREQUENCY_HELP, normalizeFrequency, type FrequencyUnit } from './frequency.js';

export { FREQUENCIES, normalizeFrequency, parseFrequency, formatFrequency, frequencySpec, stepSeconds, stepMonths } from './frequency.js';
export type { Frequency, FrequencySpec, FrequencyUnit } from './frequency.js';

/** Short alias of each frequency unit (`T` is minute, as in pandas and the interface). */
export const FREQUENCY_ALIASES: Readonly<Record<string, FrequencyUnit>> = {
  S: 'second',
  T: 'minute',
  H: 'hour',
  D: 'day',
  W: 'week',
  M: 'month',
  Q: 'quarter',
  Y: 'year',
};

/**
 * Frequency on the wire: a long name or short alias in any case (the contract's enum), extended with
 * an optional integer multiple and pandas-style units (`30min`, `15T`, `2h`, `2W`, `3M`) and month-end
 * anchors (`ME`, `QE`, `YE`); normalised to the canonical spelling (`"M"` → `"month"`, `"30T"` → `"30min"`).
 */
export const FrequencySchema = z.string().meta({ description: `Frequency: ${FREQUENCY_HELP}` }).transform((v, ctx) => {
  const f = normalizeFrequency(v);
  if (f) {
    return f;
  }
  ctx.addIssue({ code: 'custom', message: `unknown frequency "${v}"; ${FREQUENCY_HELP}` });
  return z.NEVER;
});

/**
 * Frequency in a forecast answer: checked like {@link FrequencySchema} but kept as the server wrote
 * it, since KServe (and inferkit's server) echo the caller's spelling (`"M"` stays `"M"`).
 */
export const FrequencyEchoSchema = z.string().refine((v) => normalizeFrequency(v) !== undefined, {
  error: (issue) => `unknown frequency ${JSON.stringify(issue.input)}; ${FREQUENCY_HELP}`,
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
