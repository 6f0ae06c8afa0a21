import type { DataFrame } from 'danfojs-node';
import { normalizeFrequency, type Frequency } from '../contract/enums.js';
import type { ForecastResponse, TimeSeries, TimeSeriesForecast } from '../contract/forecast.js';
import type { SeriesInput } from './frame-to-inputs.js';
import { rowsToFrame, type Row } from './columns.js';
import { addSteps, formatTimestamp, parseTimestamp } from './timestamps.js';

/** Options of `forecastToFrame` / `inputsToFrame`. */
export interface ToFrameOptions {
  /** Inputs the forecasts came from: their `variables` name the multivariate columns. */
  inputs?: readonly SeriesInput[];
}

/** Column of a quantile level: `q0.1` for key `"0.1"`. */
export function quantileColumn(level: string | number): string {
  return `q${String(level)}`;
}

/** Timestamps of `n` steps from `start` (UTC ISO); step numbers when there is no start. */
export function stepTimestamps(start: string | undefined, frequency: Frequency, n: number, offset = 0): (string | number)[] {
  const t = start === undefined ? undefined : parseTimestamp(start);
  return Array.from({ length: n }, (_, i) => (t ? formatTimestamp(addSteps(t.utc, frequency, i)) : offset + i));
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
 * series and step; timestamps are UTC ISO strings on the same grid as `frameToInputs` output.
 */
export function forecastToRows(source: ForecastResponse | readonly TimeSeriesForecast[], options: ToFrameOptions = {}): Row[] {
  const declared = new Map((options.inputs ?? []).map((i) => [i.name, i.variables]));
  const rows: Row[] = [];
  for (const f of forecastsOf(source)) {
    const means = columnsOf(f.mean_forecast);
    const multivariate = f.type === 'multivariate_time_series';
    const vars = variableNames(means.length, declared.get(f.name) ?? f.variables);
    const levels = Object.keys(f.quantiles ?? {}).sort((a, b) => Number(a) - Number(b));
    const q = levels.map((l) => columnsOf((f.quantiles ?? {})[l]));
    const stamps = stepTimestamps(f.start_timestamp, normalizeFrequency(f.frequency) ?? 'day', means[0]?.length ?? 0);
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
 * A forecast response (or list of forecasts) as a DataFrame: `id, [variable,] timestamp, mean, q0.1, …`,
 * ready to concatenate with `inputsToFrame` history (same columns and timestamp format).
 */
export function forecastToFrame(source: ForecastResponse | readonly TimeSeriesForecast[], options: ToFrameOptions = {}): DataFrame {
  const rows = forecastToRows(source, options);
  return rowsToFrame(rows, orderColumns(rows, ['id', 'variable', 'timestamp', 'mean']));
}

/** History rows `{id, [variable,] timestamp, value}` of forecast inputs (gaps as null values). */
export function inputsToRows(inputs: readonly SeriesInput[]): Row[] {
  const rows: Row[] = [];
  for (const input of inputs) {
    const cols = columnsOf(input.series);
    const multivariate = input.type === 'multivariate_time_series';
    const vars = variableNames(cols.length, input.variables);
    const stamps = stepTimestamps(input.start_timestamp, input.frequency, cols[0]?.length ?? 0);
    cols.forEach((values, j) => {
      values.forEach((v, i) => rows.push({ id: input.name, ...(multivariate ? { variable: vars[j] } : {}), timestamp: stamps[i], value: v }));
    });
  }
  return rows;
}

/** Forecast inputs back as a long DataFrame `id, [variable,] timestamp, value` (the history of a forecast plot). */
export function inputsToFrame(inputs: readonly SeriesInput[]): DataFrame {
  const rows = inputsToRows(inputs);
  return rowsToFrame(rows, orderColumns(rows, ['id', 'variable', 'timestamp', 'value']));
}
