import { frequencySpec, normalizeFrequency } from '../contract/enums.js';
import { forecastsOf } from '../data/forecast-to-frame.js';
import { inferFrequency } from '../data/infer-frequency.js';
import { parseTimestamp, type ParsedTimestamp } from '../data/timestamps.js';
import { isDataFrame } from '../data/columns.js';
import type { ForecastSource, HistorySource } from './series-points.js';

const round = (v: number): number => Number(v.toPrecision(6));

/**
 * A y range `[lo, hi]` covering every finite value of `columns` with 5% padding on each side (±1 for a
 * flat line), so quantile bands are never clipped at a panel's edge; undefined when there is no value.
 */
export function coveringRange(columns: ReadonlyArray<ReadonlyArray<number | null> | undefined>): [number, number] | undefined {
  let lo = Infinity, hi = -Infinity;
  for (const col of columns) {
    for (const v of col ?? []) {
      if (v !== null && Number.isFinite(v)) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
  }
  if (lo > hi) {
    return undefined;
  }
  const pad = hi > lo ? (hi - lo) * 0.05 : Math.max(1, Math.abs(hi) * 0.05);
  return [round(lo - pad), round(hi + pad)];
}

/**
 * The x-axis title: `time (<frequency>)` for timestamps, `step` for step numbers. The frequency is written as
 * words (`D` → `day`, `30min` → `30 minutes`, `ME` → `month end`); without one it is inferred from the
 * timestamps `x` (history and forecast of one series), else the title is `time`.
 */
export function xTitle(x: ReadonlyArray<string | number> | undefined, frequency: string | undefined): string {
  if (x !== undefined && x.length > 0 && typeof x[0] === 'number') {
    return 'step';
  }
  const words = frequencyWords(frequency) ?? frequencyWords(inferredFrequency(x ?? []));
  return words ? `time (${words})` : 'time';
}

/** A frequency in words: `day`, `2 hours`, `month end`; undefined for none or one not understood. */
export function frequencyWords(frequency: string | undefined): string | undefined {
  const normal = frequency === undefined ? undefined : normalizeFrequency(frequency);
  if (normal === undefined) {
    return undefined;
  }
  const { unit, multiple, anchor } = frequencySpec(normal);
  const base = multiple > 1 ? `${multiple} ${unit}s` : unit;
  return anchor === 'end' ? `${base} end` : base;
}

/** The frequency of sorted ISO timestamps (`'hour'`, `'ME'`), or undefined when they are too few or irregular. */
function inferredFrequency(x: ReadonlyArray<string | number>): string | undefined {
  const times = x.map(parseTimestamp);
  if (times.length < 2 || times.some((t) => t === undefined)) {
    return undefined;
  }
  const sorted = (times as ParsedTimestamp[]).sort((a, b) => a.utc - b.utc).filter((t, i, all) => i === 0 || t.utc !== all[i - 1].utc);
  const inferred = inferFrequency(sorted);
  return 'frequency' in inferred ? inferred.frequency : undefined;
}

/** Frequency of each forecast of a response or list, by series name (frames carry none). */
export function frequenciesOf(source: ForecastSource): Map<string, string> {
  const first: unknown = Array.isArray(source) ? (source as unknown[])[0] : undefined;
  if (isDataFrame(source) || (Array.isArray(source) && !(typeof first === 'object' && first !== null && 'mean_forecast' in first))) {
    return new Map();
  }
  return new Map(forecastsOf(source as Parameters<typeof forecastsOf>[0]).map((f) => [f.name, String(f.frequency)]));
}

/** Units declared on inputs or forecasts as an extra `unit` field (`{ name, unit: 'kt CO₂' }`), by series name. */
export function unitsOf(...sources: ReadonlyArray<HistorySource | ForecastSource | null>): Map<string, string> {
  const units = new Map<string, string>();
  for (const source of sources) {
    if (source === null || isDataFrame(source)) {
      continue;
    }
    const items = Array.isArray(source) ? (source as unknown[]) : forecastsOf(source as Parameters<typeof forecastsOf>[0]);
    for (const item of items) {
      const { name, unit } = (item ?? {}) as { name?: unknown; unit?: unknown };
      if (typeof name === 'string' && typeof unit === 'string' && unit !== '' && !units.has(name)) {
        units.set(name, unit);
      }
    }
  }
  return units;
}

/**
 * The y-axis title of a series key (`id` or `id · variable`): the variable of a multivariate series, else
 * the value column's name, with the unit in parentheses when one is known for the series or its id.
 */
export function yTitle(key: string, valueColumn: string, units: ReadonlyMap<string, string>): string {
  const sep = key.indexOf(' · ');
  const id = seriesId(key);
  const label = sep < 0 ? valueColumn : key.slice(sep + 3);
  const unit = units.get(key) ?? units.get(id);
  return unit ? `${label} (${unit})` : label;
}

/** The series id of a key (`EU · DAX` → `EU`). */
export function seriesId(key: string): string {
  const sep = key.indexOf(' · ');
  return sep < 0 ? key : key.slice(0, sep);
}
