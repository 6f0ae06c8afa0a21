import type { Frame } from './frame/frame.js';
import { normalizeFrequency, type Frequency } from '../contract/enums.js';
import { zoneOffsetMinutes, zonedWallToUtc } from './time-zone.js';
import type { ForecastResponse, TimeSeries, TimeSeriesForecast } from '../contract/forecast.js';
import type { SeriesInput } from './frame-to-inputs.js';
import { rowsToFrame, type Row } from './columns.js';
import { addSteps, formatWithOffset, parseTimestamp, stepMs } from './timestamps.js';

/** Options of `forecastToFrame` / `inputsToFrame`. */
export interface ToFrameOptions {
  /** Inputs the forecasts came from: their `variables` name the multivariate columns, their `time_zone` the zone. */
  inputs?: readonly SeriesInput[];
  /**
   * IANA zone to write timestamps in (`"Europe/Berlin"`), each with the zone's offset at that instant (DST
   * changes included). @default each series' `time_zone` field, else the offset of its `start_timestamp`
   */
  timeZone?: string;
}

/** Column of a quantile level: `q0.1` for key `"0.1"`. */
export function quantileColumn(level: string | number): string {
  return `q${String(level)}`;
}

const DAY_MS = 86_400_000;

/**
 * Timestamps of `n` steps from `start`, written in the start's own offset (`Z` for UTC or none), or in
 * `timeZone` with each step's own offset; step numbers when there is no start. Steps shorter than a day
 * advance the instant; a day or longer the clock (so daily data stays at local midnight across DST).
 */
export function stepTimestamps(start: string | undefined, frequency: Frequency, n: number, offset = 0, timeZone?: string): (string | number)[] {
  const t = start === undefined ? undefined : parseTimestamp(start);
  if (!t) {
    return Array.from({ length: n }, (_, i) => offset + i);
  }
  if (timeZone === undefined) {
    return Array.from({ length: n }, (_, i) => formatWithOffset(addSteps(t.wall, frequency, i), t.offset));
  }
  const fixed = stepMs(frequency);
  const zoned = (utc: number): string => {
    const off = zoneOffsetMinutes(utc, timeZone);
    return formatWithOffset(utc + off * 60_000, off);
  };
  if (fixed !== undefined && fixed < DAY_MS) {
    return Array.from({ length: n }, (_, i) => zoned(t.utc + i * fixed));
  }
  const wall = t.utc + zoneOffsetMinutes(t.utc, timeZone) * 60_000;
  return Array.from({ length: n }, (_, i) => zoned(zonedWallToUtc(addSteps(wall, frequency, i), timeZone)));
}

/**
 * Where a forecast's timestamps start: its `start_timestamp`, except in an answer without `time_zone` (KServe's
 * runtime ignores the field and advances the history's first fixed offset: a daily Berlin series from October 1
 * "continues" at 2024-11-01T00:00+02:00, a day still in the history) for a series whose zone is known: then the
 * step after the series' last timestamp on that zone's calendar, as inferkit's server counts it.
 */
export function forecastStart(f: TimeSeriesForecast, input: SeriesInput | undefined, timeZone: string | undefined): string | undefined {
  const answeredZone = (f as { time_zone?: unknown }).time_zone;
  if (answeredZone !== undefined || timeZone === undefined || input?.start_timestamp === undefined || input.name !== f.name) {
    return f.start_timestamp;
  }
  const n = columnsOf(input.series)[0]?.length ?? 0;
  const next = stepTimestamps(input.start_timestamp, normalizeFrequency(f.frequency) ?? 'day', n + 1, 0, timeZone)[n];
  return typeof next === 'string' ? next : f.start_timestamp;
}

/** The zone a series' timestamps are written in: the option, else the item's own `time_zone` field. */
function zoneOf(item: Record<string, unknown> | undefined, option: string | undefined): string | undefined {
  return option ?? (typeof item?.time_zone === 'string' ? item.time_zone : undefined);
}

function variableNames(width: number, declared: unknown): string[] {
  const names = Array.isArray(declared) && declared.every((v) => typeof v === 'string') ? (declared as string[]) : [];
  return Array.from({ length: width }, (_, j) => names[j] ?? String(j));
}

function columnsOf(s: TimeSeries): (number | null)[][] {
  if (s.length > 0 && Array.isArray(s[0])) {
    const rows = s as (number | null)[][];
    return rows[0].map((_, j) => rows.map((r) => r[j]));
  }
  return [s as (number | null)[]];
}

/** Forecast content from a response (failed outputs skipped) or a list of forecasts. */
export function forecastsOf(source: ForecastResponse | readonly TimeSeriesForecast[]): TimeSeriesForecast[] {
  return Array.isArray(source) ? [...source] : (source as ForecastResponse).outputs.flatMap((o) => (o.status === 'error' ? [] : o.content));
}

/**
 * Forecasts as rows `{id, timestamp, mean, q0.1, …}` (plus `variable` for multivariate series), one per
 * series and step; timestamps are ISO strings on the same grid as `frameToInputs` output, in the forecast's
 * offset or time zone (see {@link ToFrameOptions.timeZone}).
 */
export function forecastToRows(source: ForecastResponse | readonly TimeSeriesForecast[], options: ToFrameOptions = {}): Row[] {
  const declared = new Map((options.inputs ?? []).map((i) => [i.name, i.variables]));
  const byName = new Map((options.inputs ?? []).map((i) => [i.name, i]));
  const rows: Row[] = [];
  for (const f of forecastsOf(source)) {
    const means = columnsOf(f.mean_forecast);
    const multivariate = f.type === 'multivariate_time_series';
    const vars = variableNames(means.length, declared.get(f.name) ?? f.variables);
    const levels = Object.keys(f.quantiles ?? {}).sort((a, b) => Number(a) - Number(b));
    const q = levels.map((l) => columnsOf((f.quantiles ?? {})[l]));
    const zone = zoneOf(f, options.timeZone) ?? byName.get(f.name)?.time_zone;
    const start = forecastStart(f, byName.get(f.name), zone);
    const stamps = stepTimestamps(start, normalizeFrequency(f.frequency) ?? 'day', means[0]?.length ?? 0, 0, zone);
    means.forEach((mean, j) => {
      mean.forEach((m, i) => {
        const row: Row = { id: f.name };
        if (multivariate) {
          row.variable = vars[j];
        }
        row.timestamp = stamps[i];
        row.mean = m;
        levels.forEach((l, k) => (row[quantileColumn(l)] = q[k][j]?.[i] ?? null));
        rows.push(row);
      });
    });
  }
  return rows;
}

/** Column order of a set of rows: the union of keys, quantile columns sorted by level. */
function orderColumns(rows: readonly Row[], head: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const r of rows) {
    for (const k of Object.keys(r)) {
      keys.add(k);
    }
  }
  const quantiles = [...keys].filter((k) => /^q\d/.test(k)).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
  return [...head.filter((h) => keys.has(h) || h !== 'variable'), ...quantiles, ...[...keys].filter((k) => !head.includes(k) && !quantiles.includes(k))];
}

/**
 * A forecast response (or list of forecasts) as an inferkit Frame: `id, [variable,] timestamp, mean, q0.1, …`,
 * ready to put under `inputsToFrame` history with `Frame.concat` (same columns and timestamp format).
 */
export function forecastToFrame(source: ForecastResponse | readonly TimeSeriesForecast[], options: ToFrameOptions = {}): Frame {
  const rows = forecastToRows(source, options);
  return rowsToFrame(rows, orderColumns(rows, ['id', 'variable', 'timestamp', 'mean']));
}

/** History rows `{id, [variable,] timestamp, value}` of forecast inputs (gaps as null values), in each input's zone or `timeZone`. */
export function inputsToRows(inputs: readonly SeriesInput[], timeZone?: string): Row[] {
  const rows: Row[] = [];
  for (const input of inputs) {
    const cols = columnsOf(input.series);
    const multivariate = input.type === 'multivariate_time_series';
    const vars = variableNames(cols.length, input.variables);
    const frequency = normalizeFrequency(input.frequency) ?? 'day';
    const stamps = stepTimestamps(input.start_timestamp, frequency, cols[0]?.length ?? 0, 0, zoneOf(input, timeZone));
    cols.forEach((values, j) => {
      values.forEach((v, i) => rows.push({ id: input.name, ...(multivariate ? { variable: vars[j] } : {}), timestamp: stamps[i], value: v }));
    });
  }
  return rows;
}

/** Forecast inputs back as a long Frame `id, [variable,] timestamp, value` (the history of a forecast plot). */
export function inputsToFrame(inputs: readonly SeriesInput[], options: Pick<ToFrameOptions, 'timeZone'> = {}): Frame {
  const rows = inputsToRows(inputs, options.timeZone);
  return rowsToFrame(rows, orderColumns(rows, ['id', 'variable', 'timestamp', 'value']));
}
