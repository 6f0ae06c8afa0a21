import { frequencySpec, stepMonths, stepSeconds, type Frequency } from '../../contract/enums.js';
import { ISO_TIMESTAMP_RE } from '../../contract/timestamp.js';
import { InferkitError } from '../../errors.js';

/**
 * `start` + `steps` intervals of `frequency`, as an ISO 8601 string in the input's own form.
 *
 * - second … week are fixed durations (week = 7 days), times the frequency's multiple (`30min`,
 *   `2W`), added to the wall-clock time in the input's own offset (offsets are fixed, so no DST
 *   question arises).
 * - month, quarter (3 months) and year (12 months) move the calendar month and keep the START's
 *   day of month, clamped to the target month's last day: 2024-01-31 + 1 month = 2024-02-29,
 *   2023-01-31 + 1 month = 2023-02-28, 2024-01-31 + 3 months = 2024-04-30, 2024-02-29 + 1 year =
 *   2025-02-28. Anchoring on the start (not iterated clamping) means +2 months from Jan 31 is Mar 31.
 *   Multiples move that many more months (`3M`); month-end frequencies (`ME`, `QE`, `YE`) land on
 *   the target month's last day (2019-02-28 + 30 `ME` = 2021-08-31).
 * - Form kept: `T` or space separator, the offset exactly as written (`Z`, `+02:00`, `+0200`, or
 *   none), the fractional-second digits as written. Components the input lacks are added only when
 *   the frequency needs them (a date-only start with an hourly frequency gains `THH:MM:SS`).
 *
 * Throws `invalid_request` when the result falls outside years 0000–9999.
 */
export function advanceTimestamp(start: string, frequency: Frequency, steps: number): string {
  const m = ISO_TIMESTAMP_RE.exec(start);
  if (!m) {
    throw new InferkitError('invalid_request', `not an ISO 8601 timestamp: ${JSON.stringify(start)}`);
  }
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  const spec = frequencySpec(frequency);
  const months = stepMonths(spec);
  let f: { y: number; mo: number; d: number; h: number; mi: number; s: number };
  if (months !== undefined) {
    const total = year * 12 + (month - 1) + months * steps;
    const y = Math.floor(total / 12);
    const mo = total - y * 12 + 1;
    const dim = daysInMonth(y, mo);
    f = { y, mo, d: spec.anchor === 'end' ? dim : Math.min(day, dim), h: hour, mi: minute, s: second };
  } else {
    const t = utcDate(year, month, day, hour, minute, second);
    t.setTime(t.getTime() + steps * (stepSeconds(spec) ?? 0) * 1000);
    f = { y: t.getUTCFullYear(), mo: t.getUTCMonth() + 1, d: t.getUTCDate(), h: t.getUTCHours(), mi: t.getUTCMinutes(), s: t.getUTCSeconds() };
  }
  if (f.y < 0 || f.y > 9999) {
    throw new InferkitError('invalid_request', `${start} + ${steps} ${frequency} intervals falls outside years 0000-9999`);
  }
  const subDaily = spec.unit === 'second' || spec.unit === 'minute' || spec.unit === 'hour';
  const hasTime = m[4] !== undefined;
  let out = `${pad(f.y, 4)}-${pad(f.mo, 2)}-${pad(f.d, 2)}`;
  if (hasTime || subDaily) {
    const sep = hasTime ? start.charAt(10) : 'T';
    out += `${sep}${pad(f.h, 2)}:${pad(f.mi, 2)}`;
    if (m[6] !== undefined || !hasTime || spec.unit === 'second') {
      out += `:${pad(f.s, 2)}`;
    }
    if (m[7] !== undefined) {
      out += `.${m[7]}`;
    }
  }
  return out + (m[8] ?? '');
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
