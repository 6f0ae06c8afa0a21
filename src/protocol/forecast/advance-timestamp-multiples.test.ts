import { describe, expect, it } from 'vitest';
import { advanceTimestamp } from './advance-timestamp.js';

describe('advanceTimestamp with multiples', () => {
  it('adds multiples of fixed and calendar steps, keeping the form and month-end anchors', () => {
    expect(advanceTimestamp('2024-01-01T00:00:00+01:00', '30min', 48)).toBe('2024-01-02T00:00:00+01:00');
    expect(advanceTimestamp('2024-01-01', '15min', 3)).toBe('2024-01-01T00:45:00');
    expect(advanceTimestamp('2024-01-01T00:00Z', '2h', 13)).toBe('2024-01-02T02:00Z');
    expect(advanceTimestamp('2024-01-01', '2W', 2)).toBe('2024-01-29');
    expect(advanceTimestamp('2024-01-31', '3M', 1)).toBe('2024-04-30');
    expect(advanceTimestamp('2023-11-30', 'QE', 2)).toBe('2024-05-31');
    expect(advanceTimestamp('2023-11-30', 'Q', 2)).toBe('2024-05-30');
    expect(advanceTimestamp('2020-02-29', 'YE', 1)).toBe('2021-02-28');
  });
});
