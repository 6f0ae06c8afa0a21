import { FREQUENCIES, formatFrequency, frequencySpec, stepMonths, stepSeconds, type Frequency, type FrequencyUnit } from '../contract/enums.js';
import { formatTimestamp, type ParsedTimestamp } from './timestamps.js';

/**
 * Where sorted timestamps fall on a frequency's grid: a step index per timestamp (and `anchor: "end"` when a
 * calendar grid only fits on month ends), or the first one off it.
 */
export type GridResult = { positions: number[]; anchor?: 'end' } | { offGrid: number };

const DAY_MS = 86_400_000;
/** Coarsest first: the coarsest unit whose grid every timestamp fits on is the series' unit. */
const CANDIDATES: readonly FrequencyUnit[] = [...FREQUENCIES].reverse();

function monthParts(wall: number): { months: number; day: number; monthEnd: boolean; timeOfDay: number } {
  const d = new Date(wall);
  const y = d.getUTCFullYear(), m0 = d.getUTCMonth(), day = d.getUTCDate();
  const dim = new Date(Date.UTC(y, m0 + 1, 0)).getUTCDate();
  return { months: y * 12 + m0, day, monthEnd: day === dim, timeOfDay: ((wall % DAY_MS) + DAY_MS) % DAY_MS };
}

function dimOf(months: number): number {
  return new Date(Date.UTC(Math.floor(months / 12), (months % 12) + 1, 0)).getUTCDate();
}

/**
 * Step index of each timestamp (sorted ascending, first = 0) on the grid of `frequency` starting at the first
 * one. Sub-day steps are measured on the UTC instant; day and longer on the wall clock as written. A calendar
 * frequency without anchor keeps the first timestamp's day of month (clamped); when that fails and the first
 * one is a month end, month ends are tried (`anchor: "end"` in the result).
 */
export function gridPositions(times: readonly ParsedTimestamp[], frequency: Frequency): GridResult {
  if (times.length === 0) {
    return { positions: [] };
  }
  const spec = frequencySpec(frequency);
  const seconds = stepSeconds(spec);
  if (seconds !== undefined) {
    const fixed = seconds * 1000;
    const positions: number[] = [];
    const wallClock = fixed >= DAY_MS;
    const origin = wallClock ? times[0].wall : times[0].utc;
    for (let i = 0; i < times.length; i++) {
      const p = ((wallClock ? times[i].wall : times[i].utc) - origin) / fixed;
      if (!Number.isInteger(p)) {
        return { offGrid: i };
      }
      positions.push(p);
    }
    return { positions };
  }
  const per = stepMonths(spec) ?? 1;
  const o = monthParts(times[0].wall);
  const anchors: boolean[] = spec.anchor === 'end' ? [true] : o.monthEnd ? [false, true] : [false];
  let firstBad = 0;
  for (const monthEnd of anchors) {
    const positions: number[] = [];
    let bad = -1;
    for (let i = 0; i < times.length && bad < 0; i++) {
      const t = monthParts(times[i].wall);
      const diff = t.months - o.months;
      const expectedDay = monthEnd ? dimOf(t.months) : Math.min(o.day, dimOf(t.months));
      if (diff % per !== 0 || t.day !== expectedDay || t.timeOfDay !== o.timeOfDay) {
        bad = i;
      } else {
        positions.push(diff / per);
      }
    }
    if (bad < 0) {
      return monthEnd ? { positions, anchor: 'end' } : { positions };
    }
    firstBad = Math.max(firstBad, bad);
  }
  return { offGrid: firstBad };
}

function gcd(a: number, b: number): number {
  let x = Math.abs(a), y = Math.abs(b);
  while (y !== 0) {
    [x, y] = [y, x % y];
  }
  return x;
}

/** The inferred frequency (canonical spelling, e.g. `"30min"`, `"ME"`) and grid positions, or why none could be inferred. */
export type InferredFrequency = { frequency: Frequency; positions: number[] } | { reason: string };

/**
 * Infers the frequency of sorted, distinct timestamps: the coarsest unit (year … second) on whose grid all of
 * them lie, times the largest multiple that divides every gap (`30min`, `2h`, `2W`, `3M`), with gaps allowed
 * as long as at most half the grid is empty. Calendar months, quarters and years keep the first timestamp's
 * day of month; series that only fit on month ends get `ME`, `QE` or `YE`.
 */
export function inferFrequency(times: readonly ParsedTimestamp[]): InferredFrequency {
  if (times.length < 2) {
    return { reason: 'needs at least two timestamps to infer a frequency; pass `frequency`' };
  }
  for (const unit of CANDIDATES) {
    const grid = gridPositions(times, unit);
    if ('offGrid' in grid) {
      continue;
    }
    let g = 0;
    for (let i = 1; i < grid.positions.length; i++) {
      g = gcd(g, grid.positions[i] - grid.positions[i - 1]);
    }
    const frequency = formatFrequency({ unit, multiple: Math.max(1, g), ...(grid.anchor ? { anchor: grid.anchor } : {}) });
    const positions = grid.positions.map((p) => p / Math.max(1, g));
    const span = positions[positions.length - 1] + 1;
    if (span > 2 * times.length) {
      return {
        reason: `irregular spacing: ${times.length} timestamps spread over ${span} steps of ${frequency} (${formatTimestamp(times[0].utc)} … ${formatTimestamp(times[times.length - 1].utc)}); pass \`frequency: "${frequency}"\` (the grid every timestamp lies on) to fill the gaps as missing`,
      };
    }
    return { frequency, positions };
  }
  return {
    reason: `irregular spacing: timestamps ${formatTimestamp(times[0].utc)} and ${formatTimestamp(times[1].utc)} are on no common grid of whole seconds`,
  };
}
