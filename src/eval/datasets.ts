import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatFrequency, type Frequency } from '../contract/enums.js';
import { InferkitError } from '../errors.js';
import { inferkitPackageRoot } from '../package-root.js';

/** Data sets shipped in `datasets/` (see its README for source and licence). */
export const DATASET_NAMES = ['classic_series', 'eu_stock_markets', 'taylor'] as const;
/** Name of a shipped data set. */
export type DatasetName = (typeof DATASET_NAMES)[number];

/** One series of a data set; `values` use null for missing. */
export interface DatasetSeries {
  /** Series id (`AirPassengers`, `DAX`, …). */
  name: string;
  /** Frequency inferred from the timestamps (`day` for eu_stock_markets' trading days). */
  frequency: Frequency;
  /** Timestamp of the first value, when the data set has dates. */
  start?: string;
  values: Array<number | null>;
}

/** Options of {@link loadDataset}. */
export interface LoadDatasetOptions {
  /** Repository (package) root holding `datasets/`. @default the inferkit package seen from `process.cwd()` (else the cwd itself) */
  root?: string;
}

/**
 * Reads a shipped data set from `<root>/datasets/<name>.csv`: `classic_series` (long format
 * `id,timestamp,value`, 12 series), `eu_stock_markets` (wide, 4 daily series) or `taylor`
 * (`timestamp,value`: one half-hourly series, `30min`, 4,032 values of electricity demand). Plain
 * CSV parsing (no quoting), empty cells are missing values.
 */
export async function loadDataset(name: DatasetName, options: LoadDatasetOptions = {}): Promise<DatasetSeries[]> {
  if (!(DATASET_NAMES as readonly string[]).includes(name)) {
    throw new InferkitError('invalid_request', `unknown data set "${String(name)}"; expected one of ${DATASET_NAMES.join(', ')}`);
  }
  const file = join(options.root ?? inferkitPackageRoot() ?? process.cwd(), 'datasets', `${name}.csv`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new InferkitError('config', `cannot read ${file} (set the root option to the inferkit package folder)`, { cause });
  }
  const rows = text.split(/\r?\n/).filter((l) => l.trim() !== '').map((l) => l.split(','));
  const body = rows.slice(1);
  if (name === 'eu_stock_markets') {
    return rows[0].slice(1).map((col, j) => ({ name: col, frequency: 'day' as const, values: body.map((r) => cell(r[j + 1])) }));
  }
  const groups = new Map<string, { stamps: string[]; values: Array<number | null> }>();
  // taylor is one series without an id column.
  const long = name === 'taylor' ? body.map((r) => [name, ...r]) : body;
  for (const [id, stamp, value] of long) {
    const g = groups.get(id) ?? { stamps: [], values: [] };
    g.stamps.push(stamp);
    g.values.push(cell(value));
    groups.set(id, g);
  }
  return [...groups].map(([id, g]) => ({ name: id, frequency: inferFrequency(g.stamps), start: g.stamps[0], values: g.values }));
}

function cell(s: string | undefined): number | null {
  if (s === undefined || s.trim() === '' || s.trim() === 'NA') {
    return null;
  }
  const v = Number(s);
  return Number.isFinite(v) ? v : null;
}

/** Frequency from the first two timestamps: calendar months (1/3/12) or fixed durations with their multiple (`30min`). */
function inferFrequency(stamps: string[]): Frequency {
  if (stamps.length < 2) {
    return 'day';
  }
  const [a, b] = [new Date(stamps[0]), new Date(stamps[1])];
  const months = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth();
  if (a.getUTCDate() === b.getUTCDate() && months > 0) {
    return months >= 12 ? 'year' : months >= 3 ? 'quarter' : 'month';
  }
  const seconds = Math.round((b.getTime() - a.getTime()) / 1000);
  // The coarsest unit that divides the gap, with its multiple: 1800 s → 30min, 7200 s → 2h.
  for (const [unit, size] of [['week', 604_800], ['day', 86_400], ['hour', 3600], ['minute', 60]] as const) {
    if (seconds >= size && seconds % size === 0) {
      return formatFrequency({ unit, multiple: seconds / size });
    }
  }
  return formatFrequency({ unit: 'second', multiple: Math.max(1, seconds) });
}
