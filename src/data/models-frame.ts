import type { Frame } from './frame/frame.js';
import { normalizeFrequency } from '../contract/enums.js';
import type { TimeSeries, TimeSeriesForecast } from '../contract/forecast.js';
import type { SeriesInput } from './build-series.js';
import type { BatchForecastResult, SeriesFailure } from './batch-result.js';
import { rowsToFrame, type Row } from './columns.js';
import { forecastStart, stepTimestamps } from './forecast-to-frame.js';

/** How to lay several models' forecasts out. */
export interface ModelsFrameOptions {
  id: string;
  timestamp: string;
  /** Quantile levels asked for explicitly: a `<model>-q<level>` column each. */
  quantiles: readonly number[];
  /** Interval levels in percent: `<model>-lo-<l>` and `<model>-hi-<l>` columns. */
  level: readonly number[];
  /** Series that failed before any request. */
  rejected: readonly SeriesFailure[];
  timeZone?: string;
}

/** Per-variable paths of a series (one for univariate). */
export function paths(s: TimeSeries | undefined): (number | null)[][] {
  if (s === undefined || s.length === 0) {
    return [];
  }
  if (Array.isArray(s[0])) {
    const rows = s as (number | null)[][];
    return rows[0].map((_, j) => rows.map((r) => r[j]));
  }
  return [s as (number | null)[]];
}

/** Columns and quantile keys of one model: `[column, quantile key | undefined (mean)]`. */
export function modelColumns(model: string, o: Pick<ModelsFrameOptions, 'quantiles' | 'level'>): Array<[string, string | undefined]> {
  const cols: Array<[string, string | undefined]> = [[model, undefined]];
  for (const q of o.quantiles) {
    cols.push([`${model}-q${q}`, String(q)]);
  }
  for (const l of o.level) {
    const lo = Number(((100 - l) / 200).toFixed(12));
    cols.push([`${model}-lo-${l}`, String(lo)], [`${model}-hi-${l}`, String(Number((1 - lo).toFixed(12)))]);
  }
  return cols;
}

/**
 * Several models' forecasts side by side: one row per series (and variable) and step, a column per model,
 * quantile and level; series that no model forecast get one row with their `error`.
 */
export function modelsFrame(inputs: readonly SeriesInput[], results: Readonly<Record<string, BatchForecastResult>>, o: ModelsFrameOptions): Frame {
  const models = Object.keys(results);
  const byModel = new Map(models.map((m) => [m, new Map(results[m].forecasts.map((f) => [f.name, f]))]));
  const columns = models.flatMap((m) => modelColumns(m, o));
  const rows: Row[] = [];
  const errors = new Map<string, string>();
  for (const f of o.rejected) {
    errors.set(f.name, f.error.message);
  }
  for (const m of models) {
    for (const f of results[m].failures) {
      if (!errors.has(f.name)) {
        errors.set(f.name, `${m}: ${f.error.message}`);
      }
    }
  }
  let hasVariables = false;
  for (const input of inputs) {
    const forecasts = models.map((m) => byModel.get(m)?.get(input.name));
    const first = forecasts.find((f): f is TimeSeriesForecast => f !== undefined);
    if (!first) {
      continue;
    }
    const horizon = paths(first.mean_forecast)[0]?.length ?? 0;
    const zone = o.timeZone ?? input.time_zone;
    const stamps = stepTimestamps(forecastStart(first, input, zone), normalizeFrequency(first.frequency) ?? 'day', horizon, 0, zone);
    const width = paths(first.mean_forecast).length;
    const variables = input.variables ?? [];
    hasVariables ||= first.type === 'multivariate_time_series';
    for (let j = 0; j < width; j++) {
      for (let h = 0; h < horizon; h++) {
        const row: Row = { [o.id]: input.name };
        if (first.type === 'multivariate_time_series') {
          row.variable = variables[j] ?? String(j);
        }
        row[o.timestamp] = stamps[h];
        models.forEach((m, k) => {
          const f = forecasts[k];
          for (const [col, key] of modelColumns(m, o)) {
            const path = f === undefined ? undefined : paths(key === undefined ? f.mean_forecast : f.quantiles?.[key])[j];
            row[col] = path?.[h] ?? null;
          }
        });
        rows.push(row);
      }
    }
    errors.delete(input.name);
  }
  // What is left failed everywhere (or never reached a model).
  for (const [name, message] of errors) {
    rows.push({ [o.id]: name, [o.timestamp]: null, error: message });
  }
  const head = [o.id, ...(hasVariables ? ['variable'] : []), o.timestamp, ...columns.map(([c]) => c)];
  return rowsToFrame(rows, rows.some((r) => 'error' in r) ? [...head, 'error'] : head);
}
