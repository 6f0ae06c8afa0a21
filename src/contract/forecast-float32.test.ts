import { describe, expect, it } from 'vitest';
import { ForecastRequestSchema } from './forecast.js';

const request = (series: unknown[], type = 'univariate_time_series') => ({
  model: 'm',
  inputs: [{ type, name: 's', series, frequency: 'D' }],
  options: { horizon: 2 },
});

describe('forecast series values must fit float32 (the models compute in float32)', () => {
  it.each([
    [[1, 1e39, 3], 'univariate_time_series', ['inputs', 0, 'series', 1]],
    [[1, -Number.MAX_VALUE], 'univariate_time_series', ['inputs', 0, 'series', 1]],
    [[[1, 2], [3, 4e38]], 'multivariate_time_series', ['inputs', 0, 'series', 1, 1]],
  ])('refuses %j naming the value', (series, type, path) => {
    const r = ForecastRequestSchema.safeParse(request(series, type));
    expect(r.success).toBe(false);
    const issue = r.error?.issues[0];
    expect(issue?.path).toEqual(path);
    expect(issue?.message).toMatch(/float32 range/);
  });

  it('accepts the largest float32 and tiny values', () => {
    expect(ForecastRequestSchema.safeParse(request([3.4028234663852886e38, -3.4e38, 1e-45, 0, null])).success).toBe(true);
  });
});
