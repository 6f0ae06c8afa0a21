import { describe, expect, it } from 'vitest';
import { addSteps, formatTimestamp, parseTimestamp } from './timestamps.js';

const utc = (s: string): number => Date.parse(s);

describe('parseTimestamp', () => {
  it('normalises offsets to UTC and keeps the wall clock', () => {
    expect(parseTimestamp('2024-03-31T00:00:00+02:00')).toEqual({ utc: utc('2024-03-30T22:00:00Z'), wall: utc('2024-03-31T00:00:00Z'), offset: 120 });
    expect(parseTimestamp('2024-01-01')?.utc).toBe(utc('2024-01-01T00:00:00Z'));
    expect(parseTimestamp('2024-01-01 12:30')?.utc).toBe(utc('2024-01-01T12:30:00Z'));
    expect(parseTimestamp('2024-01-01T00:00:00.25-0130')?.utc).toBe(utc('2024-01-01T01:30:00.250Z'));
  });
  it('rejects non-dates and numbers', () => {
    expect(parseTimestamp('2024-02-30')).toBeUndefined();
    expect(parseTimestamp('yesterday')).toBeUndefined();
    expect(parseTimestamp(1_700_000_000_000)).toBeUndefined();
  });
});

describe('addSteps', () => {
  it('steps calendar months, keeping month ends', () => {
    const jan31 = utc('2024-01-31T00:00:00Z');
    expect([1, 2, 13].map((n) => formatTimestamp(addSteps(jan31, 'month', n)))).toEqual(['2024-02-29T00:00:00Z', '2024-03-31T00:00:00Z', '2025-02-28T00:00:00Z']);
    expect(formatTimestamp(addSteps(utc('2023-11-15T06:00:00Z'), 'quarter', 1))).toBe('2024-02-15T06:00:00Z');
    expect(formatTimestamp(addSteps(utc('2020-02-29T00:00:00Z'), 'year', 1))).toBe('2021-02-28T00:00:00Z');
    expect(formatTimestamp(addSteps(utc('2024-01-01T00:00:00Z'), 'hour', 36))).toBe('2024-01-02T12:00:00Z');
  });
});
