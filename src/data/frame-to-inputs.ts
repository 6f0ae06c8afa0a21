import { normalizeFrequency, type Frequency } from '../contract/enums.js';
import type { TimeSeriesInput } from '../contract/forecast.js';
import { ValidationError, type ValidationIssue } from '../errors.js';
import { toColumns, type FrameLike } from './columns.js';
import { gridPositions, inferFrequency } from './infer-frequency.js';
import { formatTimestamp, parseTimestamp, type ParsedTimestamp } from './timestamps.js';

/** A forecast input as built from a frame: multivariate ones name their variables (an extra field, kept on the wire). */
export type SeriesInput = TimeSeriesInput & { variables?: string[] };

/** How to read a long frame (one row per series and time step). */
export interface FrameToInputsOptions {
  /** Column naming the series. If the default column is absent, all rows are one series named `name`. @default "id" */
  idColumn?: string;
  /** Column of ISO 8601 strings or Dates; offsets are normalised to UTC, no offset means UTC. @default "timestamp" */
  timestampColumn?: string;
  /** Value column(s). One → univariate; several → one multivariate series per id (time first). @default "value" */
  valueColumns?: string | readonly string[];
  /** Force multivariate (`[[v], …]`) even for one value column. @default valueColumns.length > 1 */
  multivariate?: boolean;
  /** Frequency (long name or alias, any case) for every series; inferred per series when absent. */
  frequency?: string;
  /** Series name when the frame has no id column. @default "series" */
  name?: string;
}

/** Largest number of steps one series may span after filling gaps. */
const MAX_STEPS = 10_000_000;

/** Reads a cell as a number, null for missing (null, undefined, "", NaN); undefined when it is not a number. */
export function toObservation(v: unknown): number | null | undefined {
  if (v === null || v === undefined || v === '') {
    return null;
  }
  if (typeof v === 'number') {
    return Number.isNaN(v) ? null : Number.isFinite(v) ? v : undefined;
  }
  if (typeof v === 'string') {
    const t = v.trim();
    if (t === '' || /^(nan|na|null)$/i.test(t)) {
      return null;
    }
    const n = Number(t);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

interface Pending {
  times: ParsedTimestamp[];
  values: (number | null)[][];
  issue: boolean;
}

/**
 * Converts a long frame (id, timestamp, value columns) to forecast inputs, one per id in first-seen order:
 * timestamps sorted, frequency inferred (or checked against `frequency`), gaps filled with null,
 * `start_timestamp` set (UTC). Throws a ValidationError naming every bad series: unparseable or duplicate
 * timestamps, irregular spacing, non-numeric values.
 */
export function frameToInputs(frame: FrameLike, options: FrameToInputsOptions = {}): SeriesInput[] {
  const cols = toColumns(frame);
  const tsName = options.timestampColumn ?? 'timestamp';
  const valueNames = typeof options.valueColumns === 'string' ? [options.valueColumns] : [...(options.valueColumns ?? ['value'])];
  const multivariate = options.multivariate ?? valueNames.length > 1;
  const missing = [tsName, ...valueNames, ...(options.idColumn ? [options.idColumn] : [])].filter((c) => !cols.get(c));
  if (missing.length > 0 || valueNames.length === 0) {
    const what = valueNames.length === 0 ? 'no value columns given' : `missing column(s) ${missing.map((c) => `"${c}"`).join(', ')}`;
    throw new ValidationError([{ path: missing[0] ?? 'valueColumns', message: `${what}; columns are ${cols.names.join(', ')}` }], { context: 'frame' });
  }
  let frequency: Frequency | undefined;
  if (options.frequency !== undefined) {
    frequency = normalizeFrequency(options.frequency);
    if (!frequency) {
      throw new ValidationError([{ path: 'frequency', message: `unknown frequency "${options.frequency}"` }], { context: 'frame' });
    }
  }
  const ids = cols.get(options.idColumn ?? 'id');
  const stamps = cols.get(tsName) ?? [];
  const valueCols = valueNames.map((n) => cols.get(n) ?? []);
  const issues: ValidationIssue[] = [];
  const groups = new Map<string, Pending>();
  for (let r = 0; r < cols.length; r++) {
    if (ids && (ids[r] === null || ids[r] === undefined || ids[r] === '')) {
      issues.push({ path: `row ${r}`, message: `missing series id in column "${options.idColumn ?? 'id'}"` });
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
    const t = parseTimestamp(stamps[r]);
    if (!t) {
      issues.push({ path: name, message: `row ${r}: timestamp ${JSON.stringify(stamps[r])} is not an ISO 8601 date or a Date (numbers are not read as timestamps)` });
      g.issue = true;
      continue;
    }
    const row: (number | null)[] = [];
    for (let j = 0; j < valueCols.length; j++) {
      const v = toObservation(valueCols[j][r]);
      if (v === undefined) {
        issues.push({ path: name, message: `row ${r}: "${valueNames[j]}" value ${JSON.stringify(valueCols[j][r])} is not a number` });
        g.issue = true;
        break;
      }
      row.push(v);
    }
    g.times.push(t);
    g.values.push(row);
  }
  const inputs: SeriesInput[] = [];
  for (const [name, g] of groups) {
    if (g.issue) {
      continue;
    }
    const built = buildSeries(name, g, frequency, multivariate, valueNames);
    if ('message' in built) {
      issues.push({ path: name, message: built.message });
    } else {
      inputs.push(built);
    }
  }
  if (issues.length > 0) {
    throw new ValidationError(issues, { context: 'frame' });
  }
  return inputs;
}

function buildSeries(
  name: string,
  g: Pending,
  given: Frequency | undefined,
  multivariate: boolean,
  valueNames: readonly string[],
): SeriesInput | { message: string } {
  const order = g.times.map((_, i) => i).sort((a, b) => g.times[a].utc - g.times[b].utc);
  const times = order.map((i) => g.times[i]);
  for (let i = 1; i < times.length; i++) {
    if (times[i].utc === times[i - 1].utc) {
      return { message: `duplicate timestamp ${formatTimestamp(times[i].utc)}` };
    }
  }
  let frequency: Frequency;
  let positions: number[];
  if (given) {
    const grid = gridPositions(times, given);
    if ('offGrid' in grid) {
      return {
        message: `timestamp ${formatTimestamp(times[grid.offGrid].utc)} is not on the ${given} grid starting ${formatTimestamp(times[0].utc)}`,
      };
    }
    frequency = given;
    positions = grid.positions;
  } else {
    const inferred = inferFrequency(times);
    if ('reason' in inferred) {
      return { message: inferred.reason };
    }
    ({ frequency, positions } = inferred);
  }
  const steps = positions[positions.length - 1] + 1;
  if (steps > MAX_STEPS) {
    return { message: `spans ${steps} ${frequency} steps (limit ${MAX_STEPS})` };
  }
  const base = { name, frequency, start_timestamp: formatTimestamp(times[0].utc) };
  if (!multivariate) {
    const series = new Array<number | null>(steps).fill(null);
    for (let k = 0; k < positions.length; k++) {
      series[positions[k]] = g.values[order[k]][0];
    }
    return { ...base, type: 'univariate_time_series', series };
  }
  const width = valueNames.length;
  const filled: (number | null)[][] = Array.from({ length: steps }, () => new Array<number | null>(width).fill(null));
  positions.forEach((p, k) => (filled[p] = g.values[order[k]]));
  return { ...base, type: 'multivariate_time_series', series: filled, variables: [...valueNames] };
}
