import type { Frequency } from '../contract/enums.js';
import { FIXED_STEP_MS, MONTHS_PER_STEP, formatTimestamp, type ParsedTimestamp } from './timestamps.js';

/** Where sorted timestamps fall on a frequency's grid: a step index per timestamp, or the first one off it. */
export type GridResult = { positions: number[] } | { offGrid: number };

const DAY_MS = 86_400_000;
/** Coarsest first: the coarsest grid every timestamp fits on is the series' frequency. */
const CANDIDATES: readonly Frequency[] = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second'];

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
 * one. Sub-day steps are measured on the UTC instant; day and longer on the wall clock as written.
 */
export function gridPositions(times: readonly ParsedTimestamp[], frequency: Frequency): GridResult {
  if (times.length === 0) {
    return { positions: [] };
  }
  const positions: number[] = [];
  const fixed = FIXED_STEP_MS[frequency];
  if (fixed !== undefined) {
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
  const per = MONTHS_PER_STEP[frequency] ?? 1;
  const o = monthParts(times[0].wall);
  // A first timestamp on a month end (Feb 28) may anchor month ends or that day of the month: try both.
  const anchors = o.monthEnd ? [true, false] : [false];
  let firstBad = 0;
  for (const monthEnd of anchors) {
    positions.length = 0;
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
      return { positions };
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

/** The inferred frequency and grid positions, or why none could be inferred. */
export type InferredFrequency = { frequency: Frequency; positions: number[] } | { reason: string };

/**
 * Infers the frequency of sorted, distinct timestamps: the coarsest of year … second on whose grid all of
 * them lie, with one step between at least some neighbours (gaps allowed, but at most half the grid empty).
 * Calendar months, quarters and years are recognised (month ends too).
 */
export function inferFrequency(times: readonly ParsedTimestamp[]): InferredFrequency {
  if (times.length < 2) {
    return { reason: 'needs at least two timestamps to infer a frequency; pass `frequency`' };
  }
  for (const frequency of CANDIDATES) {
    const grid = gridPositions(times, frequency);
    if ('offGrid' in grid) {
      continue;
    }
    const { positions } = grid;
    let g = 0;
    for (let i = 1; i < positions.length; i++) {
      g = gcd(g, positions[i] - positions[i - 1]);
    }
    if (g > 1) {
      return {
        reason: `timestamps are ${g} ${frequency}s apart, which is not a frequency the forecast API knows; pass \`frequency: "${frequency}"\` to forecast on the ${frequency} grid with gaps as missing`,
      };
    }
    const span = positions[positions.length - 1] + 1;
    if (span > 2 * times.length) {
      return {
        reason: `irregular spacing: ${times.length} timestamps spread over ${span} ${frequency} steps (${formatTimestamp(times[0].utc)} … ${formatTimestamp(times[times.length - 1].utc)}); pass \`frequency\` to fill the gaps as missing`,
      };
    }
    return { frequency, positions };
  }
  return {
    reason: `irregular spacing: timestamps ${formatTimestamp(times[0].utc)} and ${formatTimestamp(times[1].utc)} are on no common grid of whole seconds`,
  };
}
