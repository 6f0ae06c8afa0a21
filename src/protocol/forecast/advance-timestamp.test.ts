import { describe, expect, it } from 'vitest';
import { advanceTimestamp } from './advance-timestamp.js';

describe('advanceTimestamp', () => {
  it.each([
    ['2024-01-01T00:00:59Z', 'second', 2, '2024-01-01T00:01:01Z'],
    ['2024-12-31T23:59:30.125+02:00', 'second', 45, '2025-01-01T00:00:15.125+02:00'],
    ['2024-01-01T23:30Z', 'minute', 45, '2024-01-02T00:15Z'],
    ['2024-02-28T23:00:00Z', 'hour', 2, '2024-02-29T01:00:00Z'],
    ['2023-02-28T23:00:00Z', 'hour', 2, '2023-03-01T01:00:00Z'],
    ['2024-02-28', 'day', 1, '2024-02-29'],
    ['2023-02-28', 'day', 1, '2023-03-01'],
    ['2024-12-25 06:00:00', 'day', 7, '2025-01-01 06:00:00'],
    ['2024-12-30', 'week', 1, '2025-01-06'],
    ['2024-01-31', 'month', 1, '2024-02-29'],
    ['2023-01-31T00:00:00Z', 'month', 1, '2023-02-28T00:00:00Z'],
    ['2024-01-31', 'month', 2, '2024-03-31'],
    ['2024-01-31', 'month', 3, '2024-04-30'],
    ['2024-03-31T08:15:00-05:00', 'month', 11, '2025-02-28T08:15:00-05:00'],
    ['2024-11-30', 'quarter', 1, '2025-02-28'],
    ['2023-11-30', 'quarter', 1, '2024-02-29'],
    ['1949-01-01T00:00:00Z', 'quarter', 8, '1951-01-01T00:00:00Z'],
    ['2024-02-29', 'year', 1, '2025-02-28'],
    ['2024-02-29', 'year', 4, '2028-02-29'],
    ['1871-01-01T00:00:00Z', 'year', 100, '1971-01-01T00:00:00Z'],
    ['0099-12-31', 'day', 1, '0100-01-01'],
  ] as const)('%s + %i… (%s × %i) = %s', (start, freq, steps, want) => {
    expect(advanceTimestamp(start, freq, steps)).toBe(want);
  });

  it('keeps the offset form, the separator and every fractional digit', () => {
    expect(advanceTimestamp('2024-06-30T22:00:00.123456789+0530', 'hour', 3)).toBe('2024-07-01T01:00:00.123456789+0530');
    expect(advanceTimestamp('2024-06-30 22:00', 'hour', 3)).toBe('2024-07-01 01:00');
  });

  it('adds the clock a sub-daily frequency needs to a date-only start', () => {
    expect(advanceTimestamp('2024-01-31', 'hour', 5)).toBe('2024-01-31T05:00:00');
    expect(advanceTimestamp('2024-01-31T10:00', 'second', 5)).toBe('2024-01-31T10:00:05');
  });

  it('rejects results beyond year 9999', () => {
    expect(() => advanceTimestamp('9999-06-01', 'year', 1)).toThrow(/outside years 0000-9999/);
  });
});
