import { describe, expect, it } from 'vitest';
import type { TimeSeriesForecast } from '../contract/forecast.js';
import type { BatchForecastResult } from './batch-result.js';
import { toColumns } from './columns.js';
import { forecastToRows } from './forecast-to-frame.js';
import type { SeriesInput } from './frame-to-inputs.js';
import { modelsFrame } from './models-frame.js';

// A daily Berlin series of October 2024 (31 local midnights, summer time until the 27th). KServe's runtime ignores
// `time_zone` and advances the first timestamp's fixed offset, so its answer starts at 2024-11-01T00:00+02:00, which
// is 2024-10-31T23:00+01:00: a day of the history (issue 26).
const input: SeriesInput = {
  name: 'berlin',
  type: 'univariate_time_series',
  frequency: 'D',
  start_timestamp: '2024-10-01T00:00:00+02:00',
  time_zone: 'Europe/Berlin',
  series: Array.from({ length: 31 }, (_, i) => 10 + (i % 7)),
} as SeriesInput;

const kserve = (start: string, extra: Record<string, unknown> = {}): TimeSeriesForecast =>
  ({ name: 'berlin', type: 'univariate_time_series', frequency: 'D', start_timestamp: start, mean_forecast: [1, 2, 3], ...extra }) as TimeSeriesForecast;

describe('forecastStart (an answer that ignored time_zone)', () => {
  it('frames start at the local midnight after the history, on the zone calendar, not at the answer\'s fixed-offset start', () => {
    const rows = forecastToRows([kserve('2024-11-01T00:00:00+02:00')], { inputs: [input] });
    expect(rows.map((r) => r.timestamp)).toEqual(['2024-11-01T00:00:00+01:00', '2024-11-02T00:00:00+01:00', '2024-11-03T00:00:00+01:00']);
  });

  it('the several-model frame too', () => {
    const result = { forecasts: [kserve('2024-11-01T00:00:00+02:00')], failures: [] } as unknown as BatchForecastResult;
    const frame = modelsFrame([input], { a: result, b: result }, { id: 'unique_id', timestamp: 'ds', quantiles: [], level: [], rejected: [] });
    expect(toColumns(frame).get('ds')).toEqual(['2024-11-01T00:00:00+01:00', '2024-11-02T00:00:00+01:00', '2024-11-03T00:00:00+01:00']);
  });

  it('keeps the start of an answer that carries its time_zone (inferkit\'s server), and of a series without a zone', () => {
    const answered = forecastToRows([kserve('2024-11-01T00:00:00+01:00', { time_zone: 'Europe/Berlin' })], { inputs: [input] });
    expect(answered[0].timestamp).toBe('2024-11-01T00:00:00+01:00');
    const { time_zone: _zone, ...fixed } = input as SeriesInput & { time_zone?: string };
    const plain = forecastToRows([kserve('2024-11-01T00:00:00+02:00')], { inputs: [fixed as SeriesInput] });
    expect(plain[0].timestamp).toBe('2024-11-01T00:00:00+02:00');
  });
});
