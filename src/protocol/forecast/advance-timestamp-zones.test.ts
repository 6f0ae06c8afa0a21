import { describe, expect, it } from 'vitest';
import { advanceTimestamp } from './advance-timestamp.js';

describe('advanceTimestamp in a time zone', () => {
  it.each([
    // Spring forward (Berlin Mar 31, New York Mar 10) and autumn back (Berlin Oct 27, New York Nov 3): midnights stay midnights.
    ['2024-03-01T00:00:00+01:00', 'day', 61, 'Europe/Berlin', '2024-05-01T00:00:00+02:00'],
    ['2024-10-01T00:00:00+02:00', 'day', 31, 'Europe/Berlin', '2024-11-01T00:00:00+01:00'],
    ['2024-03-01T00:00:00-05:00', 'day', 10, 'America/New_York', '2024-03-11T00:00:00-04:00'],
    ['2024-10-20T09:30:00-04:00', 'day', 15, 'America/New_York', '2024-11-04T09:30:00-05:00'],
    ['2024-03-03T00:00:00-05:00', 'week', 2, 'America/New_York', '2024-03-17T00:00:00-04:00'],
    ['2024-10-14T00:00:00+0200', 'W', 3, 'Europe/Berlin', '2024-11-04T00:00:00+0100'],
    // Southern hemisphere: Sydney springs forward on Oct 6 and falls back on Apr 7.
    ['2024-09-30T00:00:00+10:00', 'day', 7, 'Australia/Sydney', '2024-10-07T00:00:00+11:00'],
    ['2024-04-01T00:00:00+11:00', 'day', 7, 'Australia/Sydney', '2024-04-08T00:00:00+10:00'],
    // Month ends stay month ends, on the local calendar.
    ['2024-01-31T00:00:00+01:00', 'ME', 3, 'Europe/Berlin', '2024-04-30T00:00:00+02:00'],
    ['2024-08-31T00:00:00+02:00', 'ME', 2, 'Europe/Berlin', '2024-10-31T00:00:00+01:00'],
    ['2024-01-01T00:00:00+11:00', 'QS', 1, 'Australia/Sydney', '2024-04-01T00:00:00+11:00'],
    ['2024-06-01T00:00:00+10:00', 'month', 5, 'Australia/Sydney', '2024-11-01T00:00:00+11:00'],
    ['2023-07-01T00:00:00+02:00', 'year', 1, 'Europe/Berlin', '2024-07-01T00:00:00+02:00'],
    // A start in UTC is moved to the zone's local midnight it denotes, and written in the zone's offset.
    ['2024-01-01T23:00:00Z', 'month', 5, 'Europe/Berlin', '2024-06-02T00:00:00+02:00'],
    ['2024-01-01T00:00:00Z', 'month', 5, 'UTC', '2024-06-01T00:00:00Z'],
  ] as const)('%s + %s × %i in %s = %s', (start, freq, steps, zone, want) => {
    expect(advanceTimestamp(start, freq, steps, zone)).toBe(want);
  });

  it('keeps hourly and shorter steps in absolute time, written in the zone offset of the result', () => {
    // 48 hours from Berlin midnight across the spring change: the clock reads 01:00 two days later.
    expect(advanceTimestamp('2024-03-30T00:00:00+01:00', 'hour', 48, 'Europe/Berlin')).toBe('2024-04-01T01:00:00+02:00');
    expect(advanceTimestamp('2024-10-27T00:00:00+02:00', 'hour', 3, 'Europe/Berlin')).toBe('2024-10-27T02:00:00+01:00');
    expect(advanceTimestamp('2024-10-27T00:00:00+02:00', '30min', 5, 'Europe/Berlin')).toBe('2024-10-27T02:30:00+02:00');
    // Same instants as without a zone; only the offset differs.
    expect(Date.parse(advanceTimestamp('2024-03-30T00:00:00+01:00', 'hour', 48))).toBe(Date.parse('2024-04-01T01:00:00+02:00'));
  });

  it('reads a start without offset as local time and writes the result without offset', () => {
    expect(advanceTimestamp('2024-03-01', 'day', 61, 'Europe/Berlin')).toBe('2024-05-01');
    expect(advanceTimestamp('2024-03-31 00:00', 'hour', 3, 'Europe/Berlin')).toBe('2024-03-31 04:00');
  });

  it('moves a local time that a change skips forward by the gap, never back into the history', () => {
    // Santiago skips midnight on 2024-09-08 (00:00 → 01:00).
    expect(advanceTimestamp('2024-09-01T00:00:00-04:00', 'day', 7, 'America/Santiago')).toBe('2024-09-08T01:00:00-03:00');
    expect(advanceTimestamp('2024-09-01T00:00:00-04:00', 'day', 8, 'America/Santiago')).toBe('2024-09-09T00:00:00-03:00');
    expect(advanceTimestamp('2024-03-24T02:30:00+01:00', 'day', 7, 'Europe/Berlin')).toBe('2024-03-31T03:30:00+02:00');
  });

  it('names an unknown zone', () => {
    expect(() => advanceTimestamp('2024-01-01', 'day', 1, 'Europe/Berlinn')).toThrow(/unknown time zone "Europe\/Berlinn"/);
  });
});
