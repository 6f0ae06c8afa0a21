import { normalizeFrequency } from '../contract/enums.js';
import { ValidationError } from '../errors.js';
import { toColumns, type FrameLike, type Row } from './columns.js';
import { frameToInputs, toObservation, type SeriesInput } from './frame-to-inputs.js';
import { formatWithOffset, parseTimestamp } from './timestamps.js';

/** How to read a wide frame (one row per time step, one column per series or variable). */
export interface WideFrameToInputsOptions {
  /**
   * Timestamp column. When the frame has none (e.g. a row-number column), rows are consecutive steps:
   * `frequency` is then required and `start` gives the first timestamp. @default "timestamp"
   */
  timestampColumn?: string;
  /** Columns to forecast. @default every column except the timestamp column */
  columns?: readonly string[];
  /** One multivariate series with every column as a variable, instead of one univariate series per column. */
  multivariate?: boolean;
  /** Name of the multivariate series. @default "series" */
  name?: string;
  /** Frequency (any case, aliases too); inferred from the timestamps when absent. */
  frequency?: string;
  /** First timestamp when the frame has no timestamp column (ISO 8601). */
  start?: string;
}

/**
 * Converts a wide frame to forecast inputs: one univariate series per column (named after it), or one
 * multivariate series of all columns (`multivariate: true`). Same checks as `frameToInputs`.
 */
export function wideFrameToInputs(frame: FrameLike, options: WideFrameToInputsOptions = {}): SeriesInput[] {
  const cols = toColumns(frame);
  const tsName = options.timestampColumn ?? 'timestamp';
  const hasTs = cols.get(tsName) !== undefined;
  const names = [...(options.columns ?? cols.names.filter((n) => n !== tsName))];
  const absent = names.filter((n) => !cols.get(n));
  if (absent.length > 0 || names.length === 0) {
    const message = names.length === 0 ? 'no value columns' : `missing column(s) ${absent.join(', ')}; columns are ${cols.names.join(', ')}`;
    throw new ValidationError([{ path: absent[0] ?? 'columns', message }], { context: 'frame' });
  }
  if (!hasTs) {
    return consecutive(cols, names, options);
  }
  const stamps = cols.get(tsName) ?? [];
  if (options.multivariate) {
    const rows: Row[] = stamps.map((t, i) => {
      const row: Row = { timestamp: t };
      for (const n of names) {
        row[`v:${n}`] = cols.get(n)?.[i];
      }
      return row;
    });
    const inputs = frameToInputs(rows, {
      valueColumns: names.map((n) => `v:${n}`),
      multivariate: true,
      frequency: options.frequency,
      name: options.name ?? 'series',
    });
    return inputs.map((input) => ({ ...input, variables: names }));
  }
  const rows: Row[] = [];
  for (const n of names) {
    const values = cols.get(n) ?? [];
    stamps.forEach((t, i) => rows.push({ id: n, timestamp: t, value: values[i] }));
  }
  return frameToInputs(rows, { frequency: options.frequency });
}

function consecutive(cols: ReturnType<typeof toColumns>, names: string[], options: WideFrameToInputsOptions): SeriesInput[] {
  const frequency = options.frequency === undefined ? undefined : normalizeFrequency(options.frequency);
  if (!frequency) {
    const message =
      options.frequency === undefined
        ? `the frame has no "${options.timestampColumn ?? 'timestamp'}" column, so \`frequency\` is required`
        : `unknown frequency "${options.frequency}"`;
    throw new ValidationError([{ path: 'frequency', message }], { context: 'frame' });
  }
  let start: string | undefined;
  if (options.start !== undefined) {
    const t = parseTimestamp(options.start);
    if (!t) {
      throw new ValidationError([{ path: 'start', message: `"${options.start}" is not an ISO 8601 timestamp` }], { context: 'frame' });
    }
    start = formatWithOffset(t.wall, t.offset);
  }
  const series = names.map((n) =>
    (cols.get(n) ?? []).map((v, r) => {
      const o = toObservation(v);
      if (o === undefined) {
        throw new ValidationError([{ path: n, message: `row ${r}: value ${JSON.stringify(v)} is not a number` }], { context: 'frame' });
      }
      return o;
    }),
  );
  const base = { frequency, ...(start === undefined ? {} : { start_timestamp: start }) };
  if (options.multivariate) {
    const rows = Array.from({ length: cols.length }, (_, r) => series.map((s) => s[r]));
    return [{ ...base, type: 'multivariate_time_series', name: options.name ?? 'series', series: rows, variables: names }];
  }
  return names.map((n, j) => ({ ...base, type: 'univariate_time_series', name: n, series: series[j] }));
}
