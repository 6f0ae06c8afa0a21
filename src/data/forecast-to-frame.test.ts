import { describe, expect, it } from 'vitest';
import { ForecastResponseSchema, type ForecastResponse } from '../contract/forecast.js';
import { forecastToFrame, forecastToRows, inputsToFrame } from './forecast-to-frame.js';
import { frameToInputs } from './frame-to-inputs.js';
import { Frame } from './frame/frame.js';

const response: ForecastResponse = ForecastResponseSchema.parse({
  id: 'r1',
  created_at: 1_700_000_000,
  status: 'partial',
  model: 'm',
  outputs: [
    {
      type: 'time_series_forecast',
      id: 'o1',
      status: 'completed',
      content: [{ type: 'univariate_time_series', name: 'a', frequency: 'M', start_timestamp: '2024-01-31T00:00:00Z', mean_forecast: [1, 2], quantiles: { '0.9': [3, 4], '0.1': [0, 1] } }],
    },
    { type: 'time_series_forecast', id: 'o2', status: 'error', content: [], error: { code: 'model_error', message: 'boom', type: 'model_error' } },
    {
      type: 'time_series_forecast',
      id: 'o3',
      status: 'completed',
      content: [{ type: 'multivariate_time_series', name: 'm', frequency: 'day', start_timestamp: '2024-01-01T00:00:00+01:00', mean_forecast: [[1, 10], [2, 20]] }],
    },
  ],
});

describe('forecastToFrame', () => {
  it('gives one row per series and step with mean and q-columns sorted by level; failed outputs are skipped', () => {
    const rows = forecastToRows(response, { inputs: [{ type: 'multivariate_time_series', name: 'm', frequency: 'day', series: [[0, 0]], variables: ['x', 'y'] }] });
    expect(rows).toEqual([
      { id: 'a', timestamp: '2024-01-31T00:00:00Z', mean: 1, 'q0.1': 0, 'q0.9': 3 },
      { id: 'a', timestamp: '2024-02-29T00:00:00Z', mean: 2, 'q0.1': 1, 'q0.9': 4 },
      { id: 'm', variable: 'x', timestamp: '2024-01-01T00:00:00+01:00', mean: 1 },
      { id: 'm', variable: 'x', timestamp: '2024-01-02T00:00:00+01:00', mean: 2 },
      { id: 'm', variable: 'y', timestamp: '2024-01-01T00:00:00+01:00', mean: 10 },
      { id: 'm', variable: 'y', timestamp: '2024-01-02T00:00:00+01:00', mean: 20 },
    ]);
    const df = forecastToFrame(response);
    expect(df.columns).toEqual(['id', 'variable', 'timestamp', 'mean', 'q0.1', 'q0.9']);
    expect(df.shape).toEqual([6, 6]);
  });

  it('joins with the history from inputsToFrame: same ids and timestamp format', () => {
    const history = frameToInputs([
      { id: 'a', timestamp: '2023-11-30', value: 5 },
      { id: 'a', timestamp: '2023-12-31', value: 6 },
    ]);
    const h = inputsToFrame(history);
    expect(h.columns).toEqual(['id', 'timestamp', 'value']);
    const f = forecastToFrame(response.outputs[0].content);
    const joined = Frame.concat([h, f]);
    expect(joined.columns).toEqual(['id', 'timestamp', 'value', 'mean', 'q0.1', 'q0.9']);
    expect(joined.column('value').slice(1, 3)).toEqual([6, null]);
    expect(joined.column('timestamp')).toEqual(['2023-11-30T00:00:00Z', '2023-12-31T00:00:00Z', '2024-01-31T00:00:00Z', '2024-02-29T00:00:00Z']);
    expect(forecastToFrame([]).columns).toEqual(['id', 'timestamp', 'mean']);
  });
});
