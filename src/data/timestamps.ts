import { ISO_TIMESTAMP_RE } from '../contract/timestamp.js';
import type { Frequency } from '../contract/enums.js';

/**
 * A parsed timestamp: `utc` is the instant (epoch ms); `wall` is the clock time as written
 * (epoch ms of the same digits read as UTC). Day and longer frequencies are laid out on the wall
 * clock, so a daily series written in local time across a DST change stays regular.
 */
export interface ParsedTimestamp {
  utc: number;
  wall: number;
}

const DAY_MS = 86_400_000;

/** Length of the fixed-length frequencies in milliseconds (month, quarter, year are calendar steps). */
export const FIXED_STEP_MS: Readonly<Partial<Record<Frequency, number>>> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: DAY_MS,
  week: 7 * DAY_MS,
};

/** Months per step of the calendar frequencies. */
export const MONTHS_PER_STEP: Readonly<Partial<Record<Frequency, number>>> = { month: 1, quarter: 3, year: 12 };

/**
 * Reads an ISO 8601 string (date, date-time, optional fraction, `Z` or `±HH:MM`; no offset = UTC) or a
 * `Date`. Returns undefined for anything else (numbers are not taken as epochs, to avoid silent mistakes).
 */
export function parseTimestamp(value: unknown): ParsedTimestamp | undefined {
  if (value instanceof Date) {
    const t = value.getTime();
    return Number.isFinite(t) ? { utc: t, wall: t } : undefined;
  }
  if (typeof value !== 'string') {
    return undefined;
  }
  const m = ISO_TIMESTAMP_RE.exec(value.trim());
  if (!m) {
    return undefined;
  }
  const year = +m[1], month = +m[2], day = +m[3];
  const h = m[4] === undefined ? 0 : +m[4], mi = m[5] === undefined ? 0 : +m[5], sec = m[6] === undefined ? 0 : +m[6];
  if (month < 1 || month > 12 || day < 1 || day > monthLength(year, month - 1) || h > 23 || mi > 59 || sec > 59) {
    return undefined;
  }
  const ms = m[7] === undefined ? 0 : Math.round(Number(`0.${m[7]}`) * 1000);
  let wall = Date.UTC(year, month - 1, day, h, mi, sec, ms);
  // Date.UTC maps years 0–99 to 1900+; fix them explicitly.
  if (year < 100) {
    wall = new Date(wall).setUTCFullYear(year);
  }
  return { utc: wall - offsetMinutes(m[8]) * 60_000, wall };
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function monthLength(year: number, month0: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month0 === 1 && leap ? 29 : MONTH_DAYS[month0];
}

function offsetMinutes(offset: string | undefined): number {
  if (offset === undefined || offset === 'Z') {
    return 0;
  }
  const digits = offset.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4));
  return offset.startsWith('-') ? -minutes : minutes;
}

/** Formats an instant as ISO 8601 UTC: `2024-01-31T00:00:00Z` (milliseconds only when non-zero). */
export function formatTimestamp(utcMs: number): string {
  const iso = new Date(utcMs).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

function daysInMonth(year: number, month0: number): number {
  return new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
}

/**
 * Adds `n` steps of `frequency` to an instant. Calendar frequencies keep the day of month, clamped to
 * the month's length; a timestamp on the last day of a month stays on month ends (Jan 31 → Feb 29 → Mar 31).
 */
export function addSteps(ms: number, frequency: Frequency, n: number): number {
  const fixed = FIXED_STEP_MS[frequency];
  if (fixed !== undefined) {
    return ms + n * fixed;
  }
  const months = (MONTHS_PER_STEP[frequency] ?? 1) * n;
  const d = new Date(ms);
  const y = d.getUTCFullYear(), m0 = d.getUTCMonth(), day = d.getUTCDate();
  const monthEnd = day === daysInMonth(y, m0);
  const target = new Date(Date.UTC(y, m0 + months, 1));
  const ty = target.getUTCFullYear(), tm = target.getUTCMonth();
  const dim = daysInMonth(ty, tm);
  const tday = monthEnd ? dim : Math.min(day, dim);
  const r = new Date(ms);
  r.setUTCFullYear(ty, tm, tday);
  return r.getTime();
}
