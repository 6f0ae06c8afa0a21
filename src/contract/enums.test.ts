import { describe, expect, it } from 'vitest';
import { formatFrequency, FrequencySchema, normalizeFrequency, parseFrequency, StatusSchema, TimeSeriesTypeSchema } from './enums.js';
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
      `[ValidationError: unknown frequency "fortnight"; expected one of second, minute, hour, day, week, month, quarter, year or S, T, H, D, W, M, Q, Y, optionally with a multiple (30min, 2h, 2W, 3M) or month-end anchor (ME, QE, YE)]`,
    );
    for (const bad of ['0min', '30', 'min30', '1.5h', '-2h', '100001min', 'MSE', '']) {
      expect(normalizeFrequency(bad), bad).toBeUndefined();
    }
  });

  it.each([
    ['30min', '30min'], ['30T', '30min'], ['30 minutes', '30min'], ['15MIN', '15min'], ['1h', 'hour'], ['2h', '2h'], ['2H', '2h'],
    ['2W', '2W'], ['3M', '3M'], ['MS', 'month'], ['ME', 'ME'], ['me', 'ME'], ['QE', 'QE'], ['2QE', '2QE'], ['YE', 'YE'], ['A', 'year'],
    ['10s', '10s'], ['2D', '2D'], ['2d', '2D'],
  ])('extends the enum with multiples and anchors: %s → %s (idempotent)', (input, canonical) => {
    expect(parseContract(FrequencySchema, input)).toBe(canonical);
    expect(normalizeFrequency(canonical)).toBe(canonical);
  });

  it('parses a frequency into unit, multiple and anchor', () => {
    expect(parseFrequency('30min')).toEqual({ unit: 'minute', multiple: 30 });
    expect(parseFrequency('QE')).toEqual({ unit: 'quarter', multiple: 1, anchor: 'end' });
    expect(formatFrequency({ unit: 'month', multiple: 3, anchor: 'end' })).toBe('3ME');
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
