import { describe, expect, it } from 'vitest';
import { FrequencySchema, normalizeFrequency, StatusSchema, TimeSeriesTypeSchema } from './enums.js';
import { parseContract } from './parse.js';

describe('FrequencySchema', () => {
  it.each([
    ['m', 'month'], ['M', 'month'], ['Month', 'month'], ['MONTH', 'month'], ['month', 'month'],
    ['T', 'minute'], ['t', 'minute'], ['MINUTE', 'minute'], ['S', 'second'], ['H', 'hour'],
    ['d', 'day'], ['W', 'week'], ['q', 'quarter'], ['Quarter', 'quarter'], ['Y', 'year'], ['YEAR', 'year'],
  ])('normalises %s to %s', (input, expected) => {
    expect(parseContract(FrequencySchema, input)).toBe(expected);
    expect(normalizeFrequency(input)).toBe(expected);
  });

  it('rejects unknown frequencies and lists the valid ones', () => {
    expect(() => parseContract(FrequencySchema, 'fortnight')).toThrowErrorMatchingInlineSnapshot(
      `[ValidationError: unknown frequency "fortnight"; expected one of second, minute, hour, day, week, month, quarter, year or S, T, H, D, W, M, Q, Y]`,
    );
    expect(normalizeFrequency('MS')).toBeUndefined();
  });
});

describe('StatusSchema', () => {
  it.each(['COMPLETED', 'completed', 'Completed'])('produces lower case from %s', (v) => {
    expect(parseContract(StatusSchema, v)).toBe('completed');
  });
  it.each([['ERROR', 'error'], ['Pending', 'pending'], ['PARTIAL', 'partial']])('%s → %s', (v, want) => {
    expect(parseContract(StatusSchema, v)).toBe(want);
  });
  it('rejects other values', () => {
    expect(() => parseContract(StatusSchema, 'done')).toThrow(/unknown status "done"/);
  });
});

describe('TimeSeriesTypeSchema', () => {
  it('accepts any letter case and produces lower case', () => {
    expect(parseContract(TimeSeriesTypeSchema, 'UNIVARIATE_TIME_SERIES')).toBe('univariate_time_series');
    expect(parseContract(TimeSeriesTypeSchema, 'Multivariate_Time_Series')).toBe('multivariate_time_series');
  });
  it('rejects unknown types', () => {
    expect(() => parseContract(TimeSeriesTypeSchema, 'bivariate')).toThrow(/unknown time series type/);
  });
});
