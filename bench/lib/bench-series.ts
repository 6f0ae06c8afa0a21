import type { ForecastRequestInput } from '../../src/contract/forecast.js';

/**
 * `count` synthetic monthly-like series of `length` points: level + trend + yearly season + noise,
 * deterministic per index (a linear congruential generator, no Math.random), all values > 0.
 */
export function benchSeries(count: number, length: number, seed = 0): number[][] {
  return Array.from({ length: count }, (_, i) => {
    let x = ((seed + 1) * 7919 + i * 104_729) >>> 0;
    const level = 100 + (i % 97) * 3;
    const trend = ((i % 13) - 6) * 0.05;
    const amp = 5 + (i % 7);
    return Array.from({ length }, (_, t) => {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      const noise = (x / 2 ** 32 - 0.5) * 4;
      return Math.round((level + trend * t + amp * Math.sin((2 * Math.PI * t) / 12) + noise) * 100) / 100;
    });
  });
}

/** A ForecastRequest for `series` (univariate, monthly, start 2000-01-01) as a client would send it. */
export function benchForecastRequest(model: string, series: readonly number[][], horizon: number, quantiles?: number[]): ForecastRequestInput {
  return {
    model,
    inputs: series.map((s, i) => ({
      type: 'univariate_time_series',
      name: `s${i}`,
      series: [...s],
      frequency: 'month',
      start_timestamp: '2000-01-01T00:00:00Z',
    })),
    options: { horizon, ...(quantiles ? { quantiles } : {}) },
  };
}
