import { ValidationError } from '../errors.js';
import type { ParsedTimestamp } from './timestamps.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Throws a ValidationError (param `timeZone`) unless `timeZone` is an IANA zone this Node's `Intl` knows. */
export function checkTimeZone(timeZone: string): void {
  try {
    formatter(timeZone);
  } catch (cause) {
    throw new ValidationError([{ path: 'timeZone', message: `unknown time zone "${timeZone}"; expected an IANA name such as "Europe/Berlin" or "UTC"` }], { context: 'frame', cause });
  }
}

const QUARTER_HOUR = 900_000;
/** Offsets by zone and quarter hour: zone transitions fall on quarter hours, and Intl costs microseconds per call. */
const offsets = new Map<string, number>();

/** Offset of `timeZone` from UTC at the instant `utcMs`, in minutes east (Berlin in summer: 120). */
export function zoneOffsetMinutes(utcMs: number, timeZone: string): number {
  const bucket = Math.floor(utcMs / QUARTER_HOUR);
  const key = `${timeZone}|${bucket}`;
  const known = offsets.get(key);
  if (known !== undefined) {
    return known;
  }
  if (offsets.size >= 100_000) {
    offsets.clear();
  }
  const offset = offsetAt(bucket * QUARTER_HOUR, timeZone);
  offsets.set(key, offset);
  return offset;
}

function offsetAt(whole: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(whole))) {
    if (p.type !== 'literal') {
      parts[p.type] = Number(p.value);
    }
  }
  const wall = new Date(0);
  wall.setUTCFullYear(parts.year, parts.month - 1, parts.day);
  wall.setUTCHours(parts.hour % 24, parts.minute, parts.second, 0);
  return Math.round((wall.getTime() - whole) / 60_000);
}

/**
 * The instant at which the clock in `timeZone` shows `wall` (epoch ms of the digits read as UTC). A wall time
 * that occurs twice (clocks going back) gives the first of the two instants that the offset search lands on;
 * one skipped by a spring-forward gap is shifted by the gap.
 */
export function zonedWallToUtc(wall: number, timeZone: string): number {
  const first = wall - zoneOffsetMinutes(wall, timeZone) * 60_000;
  const second = wall - zoneOffsetMinutes(first, timeZone) * 60_000;
  return second;
}

/**
 * Every instant at which the clock in `timeZone` shows `wall`, earliest first: one normally, two in the hour
 * clocks go back (02:30 on a fall-back night), none in a spring-forward gap.
 */
export function zonedWallInstants(wall: number, timeZone: string): number[] {
  const out = new Set<number>();
  for (const probe of [wall - 86_400_000, wall, wall + 86_400_000]) {
    const utc = wall - zoneOffsetMinutes(probe, timeZone) * 60_000;
    if (utc + zoneOffsetMinutes(utc, timeZone) * 60_000 === wall) {
      out.add(utc);
    }
  }
  return [...out].sort((x, y) => x - y);
}

/**
 * A parsed timestamp moved into `timeZone`: one written without offset is read as that zone's local time;
 * one with an offset (or a Date) keeps its instant and gets the zone's clock time and offset. A local time
 * that occurs twice (clocks going back) is the earlier instant, or the later one when `taken` already holds
 * the earlier (so an hourly series written in local time reads 02:00, 02:00 as two hours). A local time in a
 * spring-forward gap is moved by the gap.
 */
export function inTimeZone(t: ParsedTimestamp, timeZone: string, hadOffset: boolean, taken?: ReadonlySet<number>): ParsedTimestamp {
  let utc = t.utc;
  if (!hadOffset) {
    const candidates = zonedWallInstants(t.wall, timeZone);
    utc = candidates.find((c) => !taken?.has(c)) ?? candidates[0] ?? zonedWallToUtc(t.wall, timeZone);
  }
  const offset = zoneOffsetMinutes(utc, timeZone);
  return { utc, wall: utc + offset * 60_000, offset };
}
