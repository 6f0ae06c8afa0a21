import { ValidationError } from '../errors.js';
import type { ParsedTimestamp } from './timestamps.js';
import { isKnownTimeZone, zoneOffsetMinutes, zonedWallInstants, zonedWallToUtc } from '../contract/zone-offset.js';

export { zoneOffsetMinutes, zonedWallInstants, zonedWallToUtc };

/** Throws a ValidationError (param `timeZone`) unless `timeZone` is an IANA zone this Node's `Intl` knows. */
export function checkTimeZone(timeZone: string): void {
  if (!isKnownTimeZone(timeZone)) {
    throw new ValidationError([{ path: 'timeZone', message: `unknown time zone "${timeZone}"; expected an IANA name such as "Europe/Berlin" or "UTC"` }], { context: 'frame' });
  }
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
