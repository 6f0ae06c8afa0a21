import type { Covariates, TimeSeriesInput } from '../contract/forecast.js';
import { ValidationError, type ValidationIssue } from '../errors.js';
import { advanceTimestamp } from '../protocol/forecast/advance-timestamp.js';
import { toObservation } from './build-series.js';
import { columnNames, toColumns, type FrameLike } from './columns.js';
import { readFrameSeries, type FrameToInputsOptions } from './frame-to-inputs.js';
import { inTimeZone } from './time-zone.js';
import { parseTimestamp } from './timestamps.js';

/**
 * Covariate columns of a long frame (an inferkit extension, statsforecast's exogenous columns): sent as each
 * input's `past_covariates` (history) and, for `future` ones, `future_covariates` (the horizon's values, from a
 * frame of future rows — statsforecast's `X_df` — or, in crossValidation, from the frame itself).
 */
export interface FrameCovariates {
  /** Columns known only up to each series' end (past-only). */
  past?: readonly string[];
  /** Columns known over the horizon too (calendar, promotions, planned prices …). */
  future?: readonly string[];
}

/** Inputs with covariates attached, and one issue per series whose covariates could not be read. */
export interface WithCovariates<T> {
  inputs: T[];
  issues: ValidationIssue[];
}

/** Every covariate column, past-only first, in the order given. */
export function covariateColumns(c: FrameCovariates | undefined): string[] {
  return [...(c?.past ?? []), ...(c?.future ?? [])];
}

/**
 * Reads each covariate column of `frame` like a value column (same ids, timestamps, grid and gaps, through
 * readFrameSeries) and attaches it to the input of the same id as `past_covariates[column]`. A series whose
 * covariate cannot be read (non-numeric cells) or does not cover the same steps fails alone (an issue).
 */
export function attachPastCovariates<T extends TimeSeriesInput>(frame: FrameLike, inputs: readonly T[], columns: readonly string[], options: FrameToInputsOptions): WithCovariates<T> {
  if (columns.length === 0) {
    return { inputs: [...inputs], issues: [] };
  }
  const have = new Set(columnNames(frame));
  const absent = columns.filter((c) => !have.has(c));
  if (absent.length > 0) {
    throw new ValidationError([{ path: `covariates.${absent[0]}`, message: `missing covariate column(s) ${absent.map((c) => `"${c}"`).join(', ')}; columns are ${[...have].join(', ')}` }], { context: 'frame' });
  }
  const read = columns.map((c) => {
    const r = readFrameSeries(frame, { ...options, valueColumns: c, multivariate: false });
    return { column: c, byName: new Map(r.inputs.map((i) => [i.name, i])), problems: new Map(r.issues.map((i) => [i.path, i.message])) };
  });
  const issues: ValidationIssue[] = [];
  const out: T[] = [];
  for (const input of inputs) {
    const past: Covariates = { ...(input.past_covariates ?? {}) };
    const problem = read
      .map(({ column, byName, problems }) => {
        const s = byName.get(input.name);
        if (s === undefined || s.start_timestamp !== input.start_timestamp || s.series.length !== input.series.length) {
          return `covariate "${column}": ${problems.get(input.name) ?? 'does not cover the same time steps as the series'}`;
        }
        past[column] = s.series as (number | null)[];
        return undefined;
      })
      .find((p) => p !== undefined);
    if (problem === undefined) {
      out.push({ ...input, past_covariates: past });
    } else {
      issues.push({ path: input.name, message: problem });
    }
  }
  return { inputs: out, issues };
}

/**
 * Attaches `future_covariates[column]` for each of `columns` from `futureFrame` (statsforecast's `X_df`: id,
 * timestamp and the columns, one row per series and future step): each series needs exactly `horizon` rows, at
 * the `horizon` steps after its last one. A series with missing, extra or misplaced rows, or a non-numeric cell,
 * fails alone (an issue naming the column).
 */
export function attachFutureCovariates<T extends TimeSeriesInput>(futureFrame: FrameLike, inputs: readonly T[], columns: readonly string[], horizon: number, options: FrameToInputsOptions): WithCovariates<T> {
  const cols = toColumns(futureFrame);
  const has = (n: string): boolean => cols.get(n) !== undefined;
  const idName = options.idColumn ?? (has('id') || !has('unique_id') ? 'id' : 'unique_id');
  const timeName = options.timestampColumn ?? (has('timestamp') || !has('ds') ? 'timestamp' : 'ds');
  const absent = [timeName, ...columns].filter((c) => !has(c));
  if (absent.length > 0) {
    throw new ValidationError([{ path: `futureFrame.${absent[0]}`, message: `the frame of future values has no column(s) ${absent.map((c) => `"${c}"`).join(', ')}; columns are ${cols.names.join(', ')}` }], { context: 'futureFrame' });
  }
  const ids = cols.get(idName);
  const stamps = cols.get(timeName) ?? [];
  const rowsOf = new Map<string, number[]>();
  for (let r = 0; r < cols.length; r++) {
    const id = ids ? String(ids[r]) : options.name ?? 'series';
    const list = rowsOf.get(id);
    if (list === undefined) {
      rowsOf.set(id, [r]);
    } else {
      list.push(r);
    }
  }
  const zone = options.timeZone;
  const instant = (v: unknown): number | undefined => {
    const t = parseTimestamp(v);
    return t === undefined ? undefined : zone === undefined ? t.utc : inTimeZone(t, zone, t.offset !== undefined || v instanceof Date).utc;
  };
  const issues: ValidationIssue[] = [];
  const out: T[] = [];
  for (const input of inputs) {
    const rows = (rowsOf.get(input.name) ?? []).map((r) => ({ r, at: instant(stamps[r]) })).sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
    const start = input.start_timestamp ?? '1970-01-01T00:00:00Z';
    const seriesZone = (input as { time_zone?: unknown }).time_zone;
    const zoneOf = typeof seriesZone === 'string' ? seriesZone : undefined;
    const expected = Array.from({ length: horizon }, (_, h) => parseTimestamp(advanceTimestamp(start, input.frequency, input.series.length + h, zoneOf))?.utc);
    let problem: string | undefined;
    if (rows.length !== horizon) {
      problem = `the frame of future values has ${rows.length} rows for this series, the horizon is ${horizon}`;
    } else if (rows.some((row, h) => row.at !== expected[h])) {
      const h = rows.findIndex((row, k) => row.at !== expected[k]);
      problem = `future row ${h} is at ${JSON.stringify(stamps[rows[h].r])}, expected step ${h + 1} after the series' end (${advanceTimestamp(start, input.frequency, input.series.length + h, zoneOf)})`;
    }
    const future: Covariates = { ...(input.future_covariates ?? {}) };
    for (const c of columns) {
      if (problem !== undefined) {
        break;
      }
      const values = rows.map(({ r }) => toObservation(cols.get(c)?.[r]));
      const bad = values.findIndex((v) => v === undefined);
      if (bad >= 0) {
        problem = `future covariate "${c}": ${JSON.stringify(cols.get(c)?.[rows[bad].r])} is not a number`;
      } else {
        future[c] = values as (number | null)[];
      }
    }
    if (problem === undefined) {
      out.push({ ...input, future_covariates: future });
    } else {
      issues.push({ path: input.name, message: problem });
    }
  }
  return { inputs: out, issues };
}

/** Frame-reading options of the covariates: which columns, and (batchForecast) the frame of future values. */
export interface FrameCovariateOptions extends FrameToInputsOptions {
  covariates?: FrameCovariates;
  /** Future rows of the `future` covariates (statsforecast's `X_df`). */
  futureFrame?: FrameLike;
  horizon?: number;
}

/**
 * The covariates of `frame` for its `inputs`: every covariate column's history in `past_covariates`; with a
 * `futureFrame`, the `future` columns' horizon values in `future_covariates`. `future` columns without a
 * `futureFrame` are a ValidationError naming `futureFrame` unless `historyOnly` (crossValidation cuts them
 * from the history).
 */
export function readFrameCovariates<T extends TimeSeriesInput>(frame: FrameLike, inputs: readonly T[], options: FrameCovariateOptions, historyOnly = false): WithCovariates<T> {
  const future = options.covariates?.future ?? [];
  if (!historyOnly && future.length > 0 && options.futureFrame === undefined) {
    throw new ValidationError([{ path: 'futureFrame', message: `covariates.future (${future.join(', ')}) needs their values over the horizon: pass futureFrame (a frame of future rows, as statsforecast's X_df)` }]);
  }
  const past = attachPastCovariates(frame, inputs, covariateColumns(options.covariates), options);
  if (historyOnly || future.length === 0 || options.futureFrame === undefined) {
    return past;
  }
  const ahead = attachFutureCovariates(options.futureFrame, past.inputs, future, options.horizon ?? 0, options);
  return { inputs: ahead.inputs, issues: [...past.issues, ...ahead.issues] };
}

/**
 * An input cut at `origin` for one cross-validation window: its covariates' history cut alike, and the known-future
 * ones (`future`) given their actual values over the window's `horizon` as `future_covariates`.
 */
export function cutCovariates<T extends TimeSeriesInput>(input: T, origin: number, horizon: number, future: readonly string[]): Partial<TimeSeriesInput> {
  const history = input.past_covariates;
  if (history === undefined) {
    return {};
  }
  const past = Object.fromEntries(Object.entries(history).map(([k, v]) => [k, v.slice(0, origin)]));
  const ahead = Object.fromEntries(future.filter((k) => history[k] !== undefined).map((k) => [k, history[k].slice(origin, origin + horizon)]));
  return Object.keys(ahead).length > 0 ? { past_covariates: past, future_covariates: ahead } : { past_covariates: past };
}
