import { normalizeFrequency, type Frequency } from '../contract/enums.js';
import { ValidationError, type ValidationIssue } from '../errors.js';
import { buildSeries, type PendingSeries, type SeriesInput } from './build-series.js';
import { toObservation } from './build-series.js';
import { toColumns, type Columns, type FrameLike } from './columns.js';
import { checkTimeZone, inTimeZone } from './time-zone.js';
import { parseTimestamp } from './timestamps.js';

export { toObservation } from './build-series.js';
export type { SeriesInput } from './build-series.js';

/** How to read a long frame (one row per series and time step). */
export interface FrameToInputsOptions {
  /**
   * Column naming the series. If the default column is absent, all rows are one series named `name`.
   * @default "id", else "unique_id" (statsforecast's long format) when the frame has that column
   */
  idColumn?: string;
  /**
   * Column of ISO 8601 strings or Dates. Offsets are kept (the series' `start_timestamp` is written in its
   * first timestamp's offset); no offset means UTC unless `timeZone` is given.
   * @default "timestamp", else "ds" when the frame has that column
   */
  timestampColumn?: string;
  /** Value column(s). One → univariate; several → one multivariate series per id (time first). @default "value", else "y" */
  valueColumns?: string | readonly string[];
  /** Force multivariate (`[[v], …]`) even for one value column. @default valueColumns.length > 1 */
  multivariate?: boolean;
  /** Frequency (long name, alias or multiple such as `30min`, any case) for every series; inferred per series when absent. */
  frequency?: string;
  /** Series name when the frame has no id column. @default "series" */
  name?: string;
  /**
   * IANA time zone (`"Europe/Berlin"`): timestamps without offset are read as that zone's local time, all are
   * written in the zone's offset, and each input carries `time_zone` so frames and charts of its forecast
   * stay in the zone across DST changes.
   */
  timeZone?: string;
}

/** Frame columns as resolved from the options and the frame's own names. */
interface ResolvedColumns {
  id: string;
  timestamp: string;
  values: string[];
}

/** Column names: the options', else inferkit's defaults, else statsforecast's `unique_id`, `ds`, `y`. */
function resolveColumns(cols: Columns, options: FrameToInputsOptions): ResolvedColumns {
  const has = (n: string): boolean => cols.get(n) !== undefined;
  const pick = (given: string | undefined, own: string, alt: string): string => given ?? (has(own) || !has(alt) ? own : alt);
  const values =
    options.valueColumns === undefined ? [pick(undefined, 'value', 'y')] : typeof options.valueColumns === 'string' ? [options.valueColumns] : [...options.valueColumns];
  return { id: pick(options.idColumn, 'id', 'unique_id'), timestamp: pick(options.timestampColumn, 'timestamp', 'ds'), values };
}

/** Series read from a frame: those that could be built, and one issue per series (or row) that could not. */
export interface FrameSeries {
  inputs: SeriesInput[];
  /** `path` is the series name (or `row N` for a row without id). */
  issues: ValidationIssue[];
}

/**
 * Like {@link frameToInputs}, but a bad series does not stop the others: its problem is listed in `issues`.
 * Still throws a ValidationError for problems of the whole frame (missing columns, unknown frequency or zone).
 */
export function readFrameSeries(frame: FrameLike, options: FrameToInputsOptions = {}): FrameSeries {
  const cols = toColumns(frame);
  const names = resolveColumns(cols, options);
  const multivariate = options.multivariate ?? names.values.length > 1;
  const missing = [names.timestamp, ...names.values, ...(options.idColumn ? [names.id] : [])].filter((c) => !cols.get(c));
  if (missing.length > 0 || names.values.length === 0) {
    const what = names.values.length === 0 ? 'no value columns given' : `missing column(s) ${missing.map((c) => `"${c}"`).join(', ')}`;
    throw new ValidationError([{ path: missing[0] ?? 'valueColumns', message: `${what}; columns are ${cols.names.join(', ')}` }], { context: 'frame' });
  }
  let frequency: Frequency | undefined;
  if (options.frequency !== undefined) {
    frequency = normalizeFrequency(options.frequency);
    if (!frequency) {
      throw new ValidationError([{ path: 'frequency', message: `unknown frequency "${options.frequency}"` }], { context: 'frame' });
    }
  }
  const zone = options.timeZone;
  if (zone !== undefined) {
    checkTimeZone(zone);
  }
  const ids = cols.get(names.id);
  const stamps = cols.get(names.timestamp) ?? [];
  const valueCols = names.values.map((n) => cols.get(n) ?? []);
  const issues: ValidationIssue[] = [];
  const groups = new Map<string, PendingSeries & { issue: boolean; taken?: Set<number> }>();
  for (let r = 0; r < cols.length; r++) {
    if (ids && (ids[r] === null || ids[r] === undefined || ids[r] === '')) {
      issues.push({ path: `row ${r}`, message: `missing series id in column "${names.id}"` });
      continue;
    }
    const name = ids ? String(ids[r]) : options.name ?? 'series';
    let g = groups.get(name);
    if (!g) {
      groups.set(name, (g = { times: [], values: [], issue: false }));
    }
    if (g.issue) {
      continue;
    }
    const parsed = parseTimestamp(stamps[r]);
    if (!parsed) {
      issues.push({ path: name, message: `row ${r}: timestamp ${JSON.stringify(stamps[r])} is not an ISO 8601 date or a Date (numbers are not read as timestamps)` });
      g.issue = true;
      continue;
    }
    const row: (number | null)[] = [];
    for (let j = 0; j < valueCols.length; j++) {
      const v = toObservation(valueCols[j][r]);
      if (v === undefined) {
        issues.push({ path: name, message: `row ${r}: "${names.values[j]}" value ${JSON.stringify(valueCols[j][r])} is not a number` });
        g.issue = true;
        break;
      }
      row.push(v);
    }
    if (zone === undefined) {
      g.times.push(parsed);
    } else {
      const t = inTimeZone(parsed, zone, parsed.offset !== undefined || stamps[r] instanceof Date, (g.taken ??= new Set()));
      g.taken.add(t.utc);
      g.times.push(t);
    }
    g.values.push(row);
  }
  const inputs: SeriesInput[] = [];
  for (const [name, g] of groups) {
    if (g.issue) {
      continue;
    }
    const built = buildSeries(name, g, frequency, multivariate, names.values);
    if ('message' in built) {
      issues.push({ path: name, message: built.message });
    } else {
      inputs.push(zone === undefined ? built : { ...built, time_zone: zone });
    }
  }
  return { inputs, issues };
}

/**
 * Converts a long frame (id, timestamp, value columns — or statsforecast's `unique_id`, `ds`, `y`) to forecast
 * inputs, one per id in first-seen order: timestamps sorted, frequency inferred (`30min`, `ME`, …) or checked
 * against `frequency`, gaps filled with null, `start_timestamp` set in the first timestamp's offset. Throws a
 * ValidationError naming every bad series: unparseable or duplicate timestamps, irregular spacing, non-numeric
 * values (use {@link readFrameSeries} to keep the good ones).
 */
export function frameToInputs(frame: FrameLike, options: FrameToInputsOptions = {}): SeriesInput[] {
  const { inputs, issues } = readFrameSeries(frame, options);
  if (issues.length > 0) {
    throw new ValidationError(issues, { context: 'frame' });
  }
  return inputs;
}
