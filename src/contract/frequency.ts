/** Canonical frequency units, as the reference implementation writes them (lower-case long names). */
export const FREQUENCIES = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
/** A frequency unit (one step of it is the contract's own enum value). */
export type FrequencyUnit = (typeof FREQUENCIES)[number];

/**
 * A frequency in canonical spelling, as {@link normalizeFrequency} writes it: a unit's long name for one
 * step of it (`"hour"`, `"month"` — the contract's enum), else a multiple and a pandas-style unit
 * (`"30min"`, `"2h"`, `"2W"`, `"3M"`) with `E` for calendar steps anchored on month ends (`"ME"`, `"QE"`).
 */
export type Frequency = FrequencyUnit | (string & {});

/** A parsed frequency: `multiple` steps of `unit`; calendar units may be anchored on month ends. */
export interface FrequencySpec {
  unit: FrequencyUnit;
  /** Units per step (positive integer). */
  multiple: number;
  /** `end`: every step falls on the last day of its month (`ME`, `QE`, `YE`). Only for month, quarter, year. */
  anchor?: 'end';
}

/** Largest multiple accepted (`100000min`); larger ones are typos. */
export const MAX_FREQUENCY_MULTIPLE = 100_000;

/** Unit spellings (lower case) → unit and anchor. Pandas-style aliases; `MS`/`QS`/`YS` are plain calendar steps. */
const UNIT_WORDS: Readonly<Record<string, { unit: FrequencyUnit; anchor?: 'end' }>> = {
  ...words('second', ['s', 'sec', 'secs', 'second', 'seconds']),
  ...words('minute', ['t', 'min', 'mins', 'minute', 'minutes']),
  ...words('hour', ['h', 'hr', 'hrs', 'hour', 'hours']),
  ...words('day', ['d', 'day', 'days']),
  ...words('week', ['w', 'week', 'weeks']),
  ...words('month', ['m', 'ms', 'month', 'months']),
  ...words('month', ['me', 'month_end'], 'end'),
  ...words('quarter', ['q', 'qs', 'quarter', 'quarters']),
  ...words('quarter', ['qe', 'quarter_end'], 'end'),
  ...words('year', ['y', 'a', 'ys', 'as', 'year', 'years']),
  ...words('year', ['ye', 'ae', 'year_end'], 'end'),
};

function words(unit: FrequencyUnit, list: string[], anchor?: 'end'): Record<string, { unit: FrequencyUnit; anchor?: 'end' }> {
  return Object.fromEntries(list.map((w) => [w, anchor ? { unit, anchor } : { unit }]));
}

/** Short unit spellings used in canonical multiples. */
const SHORT: Readonly<Record<FrequencyUnit, string>> = {
  second: 's', minute: 'min', hour: 'h', day: 'D', week: 'W', month: 'M', quarter: 'Q', year: 'Y',
};

const GRAMMAR = /^\s*(\d{1,9})?\s*([a-z_]+)\s*$/i;

/**
 * Reads a frequency: an optional positive integer multiple and a unit, in any letter case —
 * `s`/`sec`/`second`, `T`/`min`/`minute`, `h`/`H`/`hour`, `D`/`day`, `W`/`week`, `M`/`MS`/`month`,
 * `ME` (month end), `Q`/`QS`/`quarter`, `QE`, `Y`/`A`/`YS`/`year`, `YE` (plurals too). Examples:
 * `30min`, `15T`, `2h`, `2W`, `3M`, `QE`. Undefined when it is not one.
 */
export function parseFrequency(value: string): FrequencySpec | undefined {
  const m = GRAMMAR.exec(value);
  if (!m) {
    return undefined;
  }
  const word = UNIT_WORDS[m[2].toLowerCase()];
  const multiple = m[1] === undefined ? 1 : Number(m[1]);
  if (!word || !(multiple >= 1 && multiple <= MAX_FREQUENCY_MULTIPLE)) {
    return undefined;
  }
  return word.anchor ? { unit: word.unit, multiple, anchor: word.anchor } : { unit: word.unit, multiple };
}

/** The canonical spelling of a frequency (see {@link Frequency}): `{minute, 30}` → `"30min"`, `{hour, 1}` → `"hour"`. */
export function formatFrequency(spec: FrequencySpec): Frequency {
  if (spec.multiple === 1 && spec.anchor === undefined) {
    return spec.unit;
  }
  return `${spec.multiple === 1 ? '' : spec.multiple}${SHORT[spec.unit]}${spec.anchor === 'end' ? 'E' : ''}`;
}

/** Looks up a frequency (long name, alias or multiple, any case) and returns its canonical spelling; undefined if unknown. */
export function normalizeFrequency(value: string): Frequency | undefined {
  const spec = parseFrequency(value);
  return spec ? formatFrequency(spec) : undefined;
}

/**
 * The spec of a canonical frequency; throws a TypeError for a string that is none (callers hold frequencies
 * that were parsed at a boundary, so this is a programming error).
 */
export function frequencySpec(frequency: Frequency): FrequencySpec {
  const known = SPECS.get(frequency);
  if (known) {
    return known;
  }
  const spec = parseFrequency(frequency);
  if (!spec) {
    throw new TypeError(`not a frequency: ${JSON.stringify(frequency)}`);
  }
  if (SPECS.size < 256) {
    SPECS.set(frequency, Object.freeze(spec));
  }
  return spec;
}

/** Parsed frequencies by spelling: step arithmetic runs per timestamp, parsing once per spelling is enough. */
const SPECS = new Map<string, FrequencySpec>();

const UNIT_SECONDS: Readonly<Partial<Record<FrequencyUnit, number>>> = { second: 1, minute: 60, hour: 3600, day: 86_400, week: 604_800 };
const UNIT_MONTHS: Readonly<Partial<Record<FrequencyUnit, number>>> = { month: 1, quarter: 3, year: 12 };

/** Seconds per step of a fixed-length frequency (second … week, times the multiple); undefined for calendar steps. */
export function stepSeconds(spec: FrequencySpec): number | undefined {
  const s = UNIT_SECONDS[spec.unit];
  return s === undefined ? undefined : s * spec.multiple;
}

/** Calendar months per step (month 1, quarter 3, year 12, times the multiple); undefined for fixed-length steps. */
export function stepMonths(spec: FrequencySpec): number | undefined {
  const m = UNIT_MONTHS[spec.unit];
  return m === undefined ? undefined : m * spec.multiple;
}

/** Help text listing what a frequency may be, for error messages. */
export const FREQUENCY_HELP =
  'expected one of second, minute, hour, day, week, month, quarter, year or S, T, H, D, W, M, Q, Y, optionally with a multiple (30min, 2h, 2W, 3M) or month-end anchor (ME, QE, YE)';
