import { describe, expect, expectTypeOf, it } from 'vitest';
import type { TimeSeriesInput } from '../contract/forecast.js';
import { isUnivariate, seriesValues, type UnivariateValues } from './series-values.js';

const uni: TimeSeriesInput = { type: 'univariate_time_series', name: 'air', series: [1, null, 3], frequency: 'month' };
const multi = { type: 'multivariate_time_series', name: 'w', series: [[1, 10], [2, null]], frequency: 'day', variables: ['a', 'b'] } as const;

describe('isUnivariate', () => {
  it('narrows a forecast input so array methods type-check', () => {
    expect(isUnivariate(uni)).toBe(true);
    expect(isUnivariate({ series: [[1], [2]] })).toBe(false);
    if (isUnivariate(uni)) {
      const values: UnivariateValues = uni.series;
      expectTypeOf(values.filter((v) => v !== null)).toEqualTypeOf<number[]>();
      expect(uni.series.filter((v) => v !== null)).toEqual([1, 3]);
    }
  });
});

describe('seriesValues', () => {
  it('returns a copy of a univariate series', () => {
    const v = seriesValues(uni);
    expect(v).toEqual([1, null, 3]);
    v.push(4);
    expect(uni.series).toHaveLength(3);
  });

  it('reads one variable of a multivariate series by index or name', () => {
    expect(seriesValues(multi, 1)).toEqual([10, null]);
    expect(seriesValues(multi, 'a')).toEqual([1, 2]);
  });

  it('names the series and its variables when the variable is missing or unknown', () => {
    expect(() => seriesValues(multi)).toThrow('series "w" is multivariate with 2 variables (a, b): pass the variable to read, by index or name');
    expect(() => seriesValues(multi, 'c')).toThrow('series "w" has no variable "c" (it has 2)');
    expect(() => seriesValues(multi, 2)).toThrow('has no variable 2');
    expect(() => seriesValues(uni, 1)).toThrow('series "air" is univariate; it has no variable 1');
  });
});
