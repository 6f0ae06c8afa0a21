import type { ForecastResponse, TimeSeriesForecast } from '../contract/forecast.js';
import { isDataFrame } from '../data/columns.js';
import { InferkitError } from '../errors.js';
import { pointsBySeries, type ForecastSource, type SeriesPoints } from './series-points.js';

/**
 * What `forecastFigure` draws: a forecast source (see {@link ForecastSource}), or a `batchForecast` result — one
 * model's (`forecasts`) or several models' (`frame`, one column per model as statsforecast writes them).
 */
export type ForecastFigureSource = ForecastSource | { forecasts: readonly TimeSeriesForecast[] } | { frame: ForecastSource; models: object };

/** One model's columns in the forecast points: the mean (point forecast) and its quantile levels. */
export interface ModelColumns {
  /** Legend name: the model column, or `mean` for a one-model forecast. */
  name: string;
  mean: string;
  /** Quantile level → column (`AutoETS-lo-80` is level 0.1, `AutoETS-q0.25` level 0.25, `q0.9` level 0.9). */
  levels: Map<number, string>;
}

/** Forecast points by series and the models found in them. */
export interface ForecastModels {
  /** The source with a `batchForecast` result unwrapped. */
  source: ForecastSource;
  points: Map<string, SeriesPoints>;
  models: ModelColumns[];
}

const KEYS = new Set(['id', 'unique_id', 'variable', 'timestamp', 'ds', 'cutoff', 'y', 'value', 'error', 'index']);
const BAND = /^(.+)-(?:q(\d*\.?\d+)|lo-(\d*\.?\d+)|hi-(\d*\.?\d+))$/;
const EXPECTED = 'a forecast response, a list of forecasts, a batchForecast result (its `frame` for several models), or a frame/rows with id (or unique_id), timestamp (or ds) and `mean` or model columns (`AutoETS`, `AutoETS-lo-80`, …)';

/** The points of a figure source, unwrapping `batchForecast` results; throws naming what it expected. */
function unwrap(source: ForecastFigureSource): ForecastSource {
  if (source === null || typeof source !== 'object') {
    throw new InferkitError('invalid_request', `forecastFigure: cannot read the forecast ${String(source)}; expected ${EXPECTED}`, { param: 'forecast' });
  }
  if (isDataFrame(source) || Array.isArray(source)) {
    return source as ForecastSource;
  }
  const o = source as Record<string, unknown>;
  if (Array.isArray(o.outputs)) {
    return source as ForecastResponse;
  }
  if (o.frame !== undefined && typeof o.models === 'object') {
    return o.frame as ForecastSource;
  }
  if (Array.isArray(o.forecasts)) {
    return o.forecasts as TimeSeriesForecast[];
  }
  throw new InferkitError('invalid_request', `forecastFigure: cannot read the forecast (an object with keys ${Object.keys(o).join(', ') || 'none'}); expected ${EXPECTED}`, { param: 'forecast' });
}

/** Quantile level of a band column suffix: `q0.1` → 0.1, `lo-80` → 0.1, `hi-80` → 0.9. */
function bandLevel(m: RegExpExecArray): number {
  if (m[2] !== undefined) {
    return Number(m[2]);
  }
  const lo = Number(((100 - Number(m[3] ?? m[4])) / 200).toFixed(12));
  return m[3] !== undefined ? lo : Number((1 - lo).toFixed(12));
}

/**
 * Reads forecast points and their models: a `mean` column (from a response, forecasts or `forecastToFrame`)
 * with `q<level>` columns is one model; otherwise each numeric column that is not a key or a band is a model,
 * with its `<model>-lo-<l>`/`-hi-<l>` and `<model>-q<level>` columns as levels. `only` picks models by name, in
 * that order. Throws an InferkitError `invalid_request` naming what it expected when nothing can be drawn.
 */
export function forecastModels(source: ForecastFigureSource, only?: readonly string[]): ForecastModels {
  const unwrapped = unwrap(source);
  const all = pointsBySeries(unwrapped);
  // A series with no timestamp is a failed one (a several-model frame gives it one row with its error).
  const points = new Map([...all].filter(([, p]) => p.x.some((x) => x !== undefined && x !== null)));
  if (all.size > 0 && points.size === 0) {
    throw new InferkitError('invalid_request', `forecastFigure: the forecast has no timestamp (or ds) values; expected ${EXPECTED}`, { param: 'forecast' });
  }
  const columns = new Set<string>();
  const drawn = new Set<string>();
  for (const p of points.values()) {
    for (const [k, v] of p.columns) {
      columns.add(k);
      if (v.some((y) => y !== null)) {
        drawn.add(k);
      }
    }
  }
  const found = new Map<string, ModelColumns>();
  if (columns.has('mean')) {
    const levels = new Map([...columns].filter((c) => /^q\d*\.?\d+$/.test(c)).map((c) => [Number(c.slice(1)), c]));
    found.set('mean', { name: 'mean', mean: 'mean', levels });
  } else {
    const bands: Array<[string, number, string]> = [];
    for (const c of columns) {
      const m = BAND.exec(c);
      if (m) {
        bands.push([m[1], bandLevel(m), c]);
      } else if (!KEYS.has(c) && drawn.has(c)) {
        found.set(c, { name: c, mean: c, levels: new Map() });
      }
    }
    for (const [model, level, column] of bands) {
      found.get(model)?.levels.set(level, column);
    }
  }
  if (points.size > 0 && found.size === 0) {
    throw new InferkitError('invalid_request', `forecastFigure: no forecast columns among ${[...columns].join(', ') || 'none'}; expected ${EXPECTED}`, { param: 'forecast' });
  }
  if (only === undefined) {
    return { source: unwrapped, points, models: [...found.values()] };
  }
  const absent = only.filter((m) => !found.has(m));
  if (absent.length > 0 || only.length === 0) {
    throw new InferkitError('invalid_request', `forecastFigure: no model ${absent.join(', ') || '(empty list)'}; the forecast has ${[...found.keys()].join(', ') || 'none'}`, { param: 'models' });
  }
  return { source: unwrapped, points, models: only.map((m) => found.get(m) as ModelColumns) };
}
