import type { Frequency } from '../contract/enums.js';
import type { TimeSeriesInput, TimeSeriesInputExtensions } from '../contract/forecast.js';
import { frequencySpec, formatFrequency } from '../contract/enums.js';
import { gridPositions, inferFrequency } from './infer-frequency.js';
import { formatTimestamp, formatWithOffset, type ParsedTimestamp } from './timestamps.js';

/**
 * A forecast input as built from a frame: multivariate ones name their variables, and series read with a
 * `timeZone` carry it as `time_zone` (extra fields, kept on the wire and echoed onto the forecast).
 */
export type SeriesInput = TimeSeriesInput & TimeSeriesInputExtensions;

/** One series' rows as read from a frame, in row order. */
export interface PendingSeries {
  times: ParsedTimestamp[];
  values: (number | null)[][];
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

/**
 * Lays one series on its grid: sorts, checks duplicates, infers (or checks) the frequency, fills gaps with
 * null and writes `start_timestamp` in the first timestamp's own offset (UTC `Z` when it had none). A given
 * plain calendar frequency (`month`) on data that only fit month ends becomes its month-end form (`ME`).
 */
export function buildSeries(
  name: string,
  g: PendingSeries,
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
    frequency = grid.anchor ? formatFrequency({ ...frequencySpec(given), anchor: grid.anchor }) : given;
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
  const base = { name, frequency, start_timestamp: formatWithOffset(times[0].wall, times[0].offset) };
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
