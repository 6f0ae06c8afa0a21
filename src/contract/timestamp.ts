import { z } from 'zod';

/**
 * ISO 8601 timestamps as the forecast API accepts them: a date (`2024-01-31`), or a date-time with
 * optional seconds, fractional seconds and a `Z` or `±HH:MM` offset (`2024-01-31T12:00:00.250+02:00`).
 */
export const ISO_TIMESTAMP_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** True when `s` is a valid ISO 8601 timestamp in the accepted forms (real calendar date, valid clock). */
export function isIsoTimestamp(s: string): boolean {
  const m = ISO_TIMESTAMP_RE.exec(s);
  if (!m) {
    return false;
  }
  const [y, mo, d, h = '0', mi = '0', sec = '0'] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((x) => x ?? '0');
  const year = Number(y), month = Number(mo), day = Number(d);
  if (month < 1 || month > 12 || day < 1) {
    return false;
  }
  const dim = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= dim && Number(h) < 24 && Number(mi) < 60 && Number(sec) < 60 && validOffset(m[8]);
}

/** A `±HH:MM` / `±HHMM` offset has hours 00-23 and minutes 00-59 (`+25:00` is no offset). */
function validOffset(offset: string | undefined): boolean {
  if (offset === undefined || offset === 'Z') {
    return true;
  }
  const digits = offset.slice(1).replace(':', '');
  return Number(digits.slice(0, 2)) < 24 && Number(digits.slice(2)) < 60;
}

/** An ISO 8601 timestamp string (kept as written). */
export const IsoTimestampSchema = z.string().refine(isIsoTimestamp, {
  message: 'expected an ISO 8601 timestamp such as 2024-01-31 or 2024-01-31T12:00:00Z',
});
