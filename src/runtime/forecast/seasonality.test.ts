import { describe, expect, it } from 'vitest';
import { seasonalPeriods, seasonFor } from './seasonality.js';

describe('seasonalPeriods', () => {
  it.each([
    ['30min', [48, 336]], ['hour', [24, 168]], ['h', [24, 168]], ['15min', [96, 672]], ['2h', [12, 84]], ['5h', []],
    ['minute', [1440, 10080]], ['second', [60, 3600]], ['day', [7, 365]], ['week', [52]], ['2W', [26]],
    ['month', [12]], ['ME', [12]], ['3M', [4]], ['quarter', [4]], ['QE', [4]], ['year', []], ['nonsense', []],
  ])('%s → %j', (f, want) => {
    expect(seasonalPeriods(f)).toEqual(want);
  });

  it('gives single-season models the shortest period', () => {
    expect(seasonFor('30min', 1000)).toBe(48);
    expect(seasonFor('30min', 40)).toBe(1);
    expect(seasonalPeriods('30min', 600, 2)).toEqual([48]);
    expect(seasonalPeriods('30min', 672, 2)).toEqual([48, 336]);
  });
});
