import type { ForecastResponse, TimeSeriesForecast, TimeSeriesInput } from '../contract/forecast.js';
import { isDataFrame, toRows, type FrameLike, type Row } from '../data/columns.js';
import { forecastToRows, inputsToRows } from '../data/forecast-to-frame.js';

/** History to plot: a long frame or rows (`id, [variable,] timestamp, value`), or forecast inputs. */
export type HistorySource = FrameLike | readonly TimeSeriesInput[];
/** Forecasts to plot: a response, a list of forecasts, or a frame/rows from `forecastToFrame`. */
export type ForecastSource = FrameLike | ForecastResponse | readonly TimeSeriesForecast[];

/** One series' points: x (timestamps or step numbers) and named y columns (`value`, `mean`, `q0.1`, …). */
export interface SeriesPoints {
  x: (string | number)[];
  columns: Map<string, (number | null)[]>;
}

function asRows(source: HistorySource | ForecastSource): Row[] {
  if (isDataFrame(source)) {
    return toRows(source);
  }
  if (!Array.isArray(source)) {
    return forecastToRows(source as ForecastResponse);
  }
  const first = (source as readonly Row[])[0];
  if (first && Array.isArray(first.series)) {
    return inputsToRows(source as readonly TimeSeriesInput[]);
  }
  if (first && 'mean_forecast' in first) {
    return forecastToRows(source as readonly TimeSeriesForecast[]);
  }
  return source as Row[];
}

/** Series key: the id (or statsforecast's `unique_id`), with the variable of a multivariate series (`EU · DAX`). */
export function seriesKey(row: Row): string {
  const id = String(row.id ?? row.unique_id ?? 'series');
  return row.variable === undefined || row.variable === null ? id : `${id} · ${String(row.variable)}`;
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * Groups any history or forecast source by series, keeping first-seen order; every numeric column is kept.
 * Timestamps are passed through as written (offsets included: Plotly shows the clock as written).
 * statsforecast's `unique_id`/`ds` columns are read like `id`/`timestamp`.
 */
export function pointsBySeries(source: HistorySource | ForecastSource): Map<string, SeriesPoints> {
  const out = new Map<string, SeriesPoints>();
  for (const row of asRows(source)) {
    const key = seriesKey(row);
    let s = out.get(key);
    if (!s) {
      out.set(key, (s = { x: [], columns: new Map() }));
    }
    const i = s.x.length;
    const t = row.timestamp ?? row.ds;
    s.x.push(t instanceof Date ? t.toISOString() : (t as string | number));
    for (const [k, v] of Object.entries(row)) {
      if (k === 'id' || k === 'variable' || k === 'timestamp' || k === 'unique_id' || k === 'ds') {
        continue;
      }
      let col = s.columns.get(k);
      if (!col) {
        s.columns.set(k, (col = new Array<number | null>(i).fill(null)));
      }
      col.push(num(v));
    }
    for (const col of s.columns.values()) {
      if (col.length < s.x.length) {
        col.push(null);
      }
    }
  }
  return out;
}
