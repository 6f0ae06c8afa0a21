/**
 * IANA time-zone arithmetic on `Intl` (no dependency): a zone's offset at an instant, and the instants at which
 * its clock shows a given wall time. Times are epoch milliseconds; a "wall" time is the clock's digits read as
 * UTC. Imports nothing, so the forecast protocol (start timestamps) and the frames (rows) share one rule.
 */

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

/** True when `timeZone` is an IANA zone name (or `UTC`) this Node's `Intl` knows. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

const QUARTER_HOUR = 900_000;
/** Offsets by zone and quarter hour: zone transitions fall on quarter hours, and Intl costs microseconds per call. */
const offsets = new Map<string, number>();

/** Offset of `timeZone` from UTC at the instant `utcMs`, in minutes east (Berlin in summer: 120). Throws a RangeError for an unknown zone. */
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
 * that occurs twice (clocks going back) gives the earlier instant; one skipped by a spring-forward gap is moved
 * forward by the gap (Berlin's 02:30 on the spring night is 03:30 summer time; Santiago's skipped midnight is
 * 01:00), as pandas' `nonexistent="shift_forward"` and Temporal's "compatible" do.
 */
export function zonedWallToUtc(wall: number, timeZone: string): number {
  const instants = zonedWallInstants(wall, timeZone);
  // In a gap, the clock still runs on the offset from before the change (a day earlier: changes are months apart).
  return instants[0] ?? wall - zoneOffsetMinutes(wall - 86_400_000, timeZone) * 60_000;
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
