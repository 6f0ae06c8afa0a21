import { ISO_TIMESTAMP_RE } from '../contract/timestamp.js';
import { frequencySpec, stepMonths, stepSeconds, type Frequency } from '../contract/enums.js';

/**
 * A parsed timestamp: `utc` is the instant (epoch ms); `wall` is the clock time as written
 * (epoch ms of the same digits read as UTC). Day and longer frequencies are laid out on the wall
 * clock, so a daily series written in local time across a DST change stays regular.
 */
export interface ParsedTimestamp {
  utc: number;
  wall: number;
  /** The offset as written, in minutes east of UTC (`Z` = 0); absent when none was written (read as UTC). */
  offset?: number;
}


/** Length of one step of a fixed-length frequency in milliseconds (`30min` → 1 800 000); undefined for calendar steps. */
export function stepMs(frequency: Frequency): number | undefined {
  const s = stepSeconds(frequencySpec(frequency));
  return s === undefined ? undefined : s * 1000;
}

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
  if (m[8] === undefined) {
    return { utc: wall, wall };
  }
  const offset = offsetMinutes(m[8]);
  return { utc: wall - offset * 60_000, wall, offset };
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
 * Formats a clock time (`wall`, epoch ms of the digits read as UTC) with an offset in minutes:
 * `2024-03-31T03:00:00+02:00`; `Z` when the offset is 0 or undefined (the instant is UTC). Milliseconds only
 * when non-zero.
 */
export function formatWithOffset(wall: number, offset: number | undefined): string {
  const iso = formatTimestamp(wall);
  if (offset === undefined || offset === 0) {
    return iso;
  }
  const sign = offset < 0 ? '-' : '+';
  const a = Math.abs(offset);
  return `${iso.slice(0, -1)}${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

/**
 * Adds `n` steps of `frequency` to a time (epoch ms; pass the wall clock for day and longer steps).
 * Fixed steps add their length (`30min` × n). Calendar steps keep the start's day of month, clamped to the
 * month's length (Jan 31 + 1 month = Feb 29, + 2 months = Mar 31 — anchored on the start, as the forecast
 * API does); month-end frequencies (`ME`, `QE`, `YE`) land on the last day of every month.
 */
export function addSteps(ms: number, frequency: Frequency, n: number): number {
  const spec = frequencySpec(frequency);
  const seconds = stepSeconds(spec);
  if (seconds !== undefined) {
    return ms + n * seconds * 1000;
  }
  const months = (stepMonths(spec) ?? 1) * n;
  const d = new Date(ms);
  const y = d.getUTCFullYear(), m0 = d.getUTCMonth(), day = d.getUTCDate();
  const target = new Date(Date.UTC(2000, m0 + months, 1));
  const ty = y + (target.getUTCFullYear() - 2000), tm = target.getUTCMonth();
  const dim = daysInMonth(ty, tm);
  const r = new Date(ms);
  r.setUTCFullYear(ty, tm, spec.anchor === 'end' ? dim : Math.min(day, dim));
  return r.getTime();
}
