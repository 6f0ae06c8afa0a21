import { describe, expect, it } from 'vitest';
import { inferTask } from './model-task.js';

describe('inferTask', () => {
  it('takes --task in any case and spelling', () => {
    expect(inferTask({ task: 'Time-Series-Forecast', modelName: 'm' })).toBe('time_series_forecast');
    expect(inferTask({ task: 'token_classification', modelName: 'chronos' })).toBe('token_classification');
  });
  it('infers forecasting from the model id or name, else token classification', () => {
    expect(inferTask({ modelId: 'amazon/chronos-bolt-small', modelName: 'm' })).toBe('time_series_forecast');
    expect(inferTask({ modelId: 'baseline/seasonal-naive', modelName: 'm' })).toBe('time_series_forecast');
    expect(inferTask({ modelName: 'my-forecaster' })).toBe('time_series_forecast');
    expect(inferTask({ modelId: 'dslim/bert-base-NER', modelName: 'bert' })).toBe('token_classification');
    expect(['auto-ets', 'AutoETS', 'baseline/ets', 'mstl'].map((modelId) => inferTask({ modelId, modelName: 'm' }))).toEqual(new Array(4).fill('time_series_forecast'));
    expect(inferTask({ modelId: 'org/pockets-ner', modelName: 'm' })).toBe('token_classification');
  });
  it('reads the --model_dir folder name when no --model_id names the model (KServe ignores the folder then)', () => {
    expect(inferTask({ modelDir: './models/chronos-bolt-small', modelName: 'm' })).toBe('time_series_forecast');
    expect(inferTask({ modelDir: '/mnt/models', modelName: 'm' })).toBe('token_classification');
    expect(inferTask({ modelId: 'dslim/bert-base-NER', modelDir: './models/chronos-bolt-small', modelName: 'm' })).toBe('token_classification');
  });
  it('rejects an unknown task naming the supported ones', () => {
    expect(() => inferTask({ task: 'speech', modelName: 'm' })).toThrow(/supported: token_classification, time_series_forecast/);
  });
});
