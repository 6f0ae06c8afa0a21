import { frequencySpec, stepMonths, stepSeconds, type Frequency, type FrequencySpec } from '../../contract/enums.js';
import { ISO_TIMESTAMP_RE } from '../../contract/timestamp.js';
import { isKnownTimeZone, zoneOffsetMinutes, zonedWallInstants, zonedWallToUtc } from '../../contract/zone-offset.js';
import { InferkitError } from '../../errors.js';

/**
 * `start` + `steps` intervals of `frequency`, as an ISO 8601 string in the input's own form.
 *
 * - second … hour are absolute durations (times the frequency's multiple: `30min`, `2h`), also in a time zone.
 * - day and week (7 days) move the calendar day and keep the clock time: in the start's own offset, or, with
 *   `timeZone`, on that zone's local calendar (Berlin midnight + 1 day is the next Berlin midnight across a
 *   DST change; a clock time the change skips moves by the gap).
 * - month, quarter (3 months) and year (12 months) move the calendar month and keep the START's
 *   day of month, clamped to the target month's last day: 2024-01-31 + 1 month = 2024-02-29,
 *   2023-01-31 + 1 month = 2023-02-28, 2024-01-31 + 3 months = 2024-04-30, 2024-02-29 + 1 year =
 *   2025-02-28. Anchoring on the start (not iterated clamping) means +2 months from Jan 31 is Mar 31.
 *   Multiples move that many more months (`3M`); month-end frequencies (`ME`, `QE`, `YE`) land on
 *   the target month's last day (2019-02-28 + 30 `ME` = 2021-08-31). With `timeZone` this is the local calendar too.
 * - Form kept: `T` or space separator, the offset as written (`Z`, `+02:00`, `+0200`, or none), the
 *   fractional-second digits as written. With `timeZone` an offset is the zone's offset at the result, in the
 *   start's style (`Z` stays `Z` only at offset 0), and a start without offset is read as the zone's local time.
 *   Components the input lacks are added only when the frequency needs them (a date-only start with an hourly
 *   frequency gains `THH:MM:SS`).
 *
 * Throws `invalid_request` when the result falls outside years 0000–9999 or `timeZone` is not an IANA zone.
 */
export function advanceTimestamp(start: string, frequency: Frequency, steps: number, timeZone?: string): string {
  const m = ISO_TIMESTAMP_RE.exec(start);
  if (!m) {
    throw new InferkitError('invalid_request', `not an ISO 8601 timestamp: ${JSON.stringify(start)}`);
  }
  if (timeZone !== undefined && !isKnownTimeZone(timeZone)) {
    throw new InferkitError('invalid_request', `unknown time zone ${JSON.stringify(timeZone)}; expected an IANA name such as "Europe/Berlin" or "UTC"`);
  }
  const spec = frequencySpec(frequency);
  const wall = utcDate(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)).getTime();
  const written = m[8];
  let out: number;
  let offset: string | undefined = written;
  if (timeZone === undefined) {
    out = addWall(wall, spec, steps);
  } else {
    const utc = written !== undefined ? wall - offsetOf(written) * 60_000 : (zonedWallInstants(wall, timeZone)[0] ?? zonedWallToUtc(wall, timeZone));
    const local = utc + zoneOffsetMinutes(utc, timeZone) * 60_000;
    const seconds = stepSeconds(spec);
    const calendar = seconds === undefined || seconds >= 86_400;
    const at = calendar ? zonedWallToUtc(addWall(local, spec, steps), timeZone) : utc + steps * (seconds ?? 0) * 1000;
    const zoneOffset = zoneOffsetMinutes(at, timeZone);
    // A local result without offset keeps the calendar's digits (a date-only daily series stays date-only, even on a day the change skips midnight).
    out = calendar && written === undefined ? addWall(local, spec, steps) : at + zoneOffset * 60_000;
    offset = written === undefined ? undefined : formatOffset(zoneOffset, written);
  }
  return format(m, start, new Date(out), spec, steps, frequency) + (offset ?? '');
}

/** A wall time plus `steps` of `spec`: fixed steps add their length, calendar steps move the month (see advanceTimestamp). */
function addWall(wall: number, spec: FrequencySpec, steps: number): number {
  const months = stepMonths(spec);
  if (months === undefined) {
    return wall + steps * (stepSeconds(spec) ?? 0) * 1000;
  }
  const d = new Date(wall);
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months * steps;
  const y = Math.floor(total / 12);
  const mo = total - y * 12 + 1;
  const dim = daysInMonth(y, mo);
  return utcDate(y, mo, spec.anchor === 'end' ? dim : Math.min(d.getUTCDate(), dim), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()).getTime();
}

function format(m: RegExpExecArray, start: string, f: Date, spec: FrequencySpec, steps: number, frequency: Frequency): string {
  const y = f.getUTCFullYear();
  if (y < 0 || y > 9999) {
    throw new InferkitError('invalid_request', `${start} + ${steps} ${frequency} intervals falls outside years 0000-9999`);
  }
  const subDaily = spec.unit === 'second' || spec.unit === 'minute' || spec.unit === 'hour';
  const hasTime = m[4] !== undefined;
  let out = `${pad(y, 4)}-${pad(f.getUTCMonth() + 1, 2)}-${pad(f.getUTCDate(), 2)}`;
  if (hasTime || subDaily) {
    const sep = hasTime ? start.charAt(10) : 'T';
    out += `${sep}${pad(f.getUTCHours(), 2)}:${pad(f.getUTCMinutes(), 2)}`;
    if (m[6] !== undefined || !hasTime || spec.unit === 'second') {
      out += `:${pad(f.getUTCSeconds(), 2)}`;
    }
    if (m[7] !== undefined) {
      out += `.${m[7]}`;
    }
  }
  return out;
}

/** Minutes east of UTC of a written offset (`Z`, `+02:00`, `-0530`). */
function offsetOf(written: string): number {
  if (written === 'Z') {
    return 0;
  }
  const digits = written.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4));
  return written.startsWith('-') ? -minutes : minutes;
}

/** `minutes` east written in the style of `like`: `Z` (only at 0; else `±HH:MM`), `±HH:MM` or `±HHMM`. */
function formatOffset(minutes: number, like: string): string {
  if (minutes === 0 && like === 'Z') {
    return 'Z';
  }
  const a = Math.abs(minutes);
  const sep = like.includes(':') || like === 'Z' ? ':' : '';
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(a / 60), 2)}${sep}${pad(a % 60, 2)}`;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function daysInMonth(year: number, month: number): number {
  return utcDate(year, month + 1, 0, 0, 0, 0).getUTCDate();
}

/** A Date at the given UTC fields; unlike Date.UTC, years 0–99 are not mapped to 1900–1999. */
function utcDate(y: number, mo: number, d: number, h: number, mi: number, s: number): Date {
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  t.setUTCHours(h, mi, s, 0);
  return t;
}
