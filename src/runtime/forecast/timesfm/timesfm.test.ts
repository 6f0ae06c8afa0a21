import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localForecaster } from '../../../protocol/forecast/local-forecaster.js';
import type { ForecastModel } from '../forecast-model.js';
import { timesFmFrequencyIndex } from './frequency-index.js';
import { loadTimesFm } from './load-timesfm.js';

const MODEL_20 = join(process.cwd(), '../shared/conformance/timesfm-2.0/model');
const cacheDir = mkdtempSync(join(tmpdir(), 'inferkit-timesfm-unit-'));
const series = Array.from({ length: 90 }, (_, t) => 10 + Math.sin(t / 3) * 4 + t / 20);
let model: ForecastModel;
beforeAll(async () => {
  model = await loadTimesFm(MODEL_20, { cacheDir, name: 'tfm' });
});
afterAll(async () => {
  await model?.dispose();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe('TimesFM frequency index (KServe map, by unit)', () => {
  it('second…day → 0, week/month → 1, quarter/year → 2; multiples and anchored spellings by their unit', () => {
    expect(['second', 'T', '15min', 'h', 'D', '7D'].map(timesFmFrequencyIndex)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(['W', '2W', 'month', 'ME'].map(timesFmFrequencyIndex)).toEqual([1, 1, 1, 1]);
    expect(['Q', 'QE', 'year', 'Y'].map(timesFmFrequencyIndex)).toEqual([2, 2, 2, 2]);
  });

  it('changes the 2.0 forecast (freq_emb is added to every patch)', async () => {
    const x = Float32Array.from(series);
    const [d, m] = await Promise.all([model.predict([x], 8, { frequencies: ['D'] }), model.predict([x], 8, { frequencies: ['2W'] })]);
    const w = await model.predict([x], 8, { frequencies: ['month'] });
    expect(m.values[0]).toEqual(w.values[0]);
    expect(d.values[0]).not.toEqual(m.values[0]);
  });
});

describe('TimesFM loaded from its checkpoint', () => {
  it('says which file its graph was built from (model.graph), its busy time still read live from the session', async () => {
    expect(model.graph).toMatchObject({ from: 'checkpoint', file: 'model.safetensors', family: 'timesfm-2.0', variant: 'fp32' });
    // withGraph sets the field in place: a copy would have frozen busyMs at load.
    const before = model.busyMs ?? 0;
    await model.predict([Float32Array.from(series)], 8);
    expect(model.busyMs ?? 0).toBeGreaterThanOrEqual(before);
    expect(Object.getOwnPropertyDescriptor(model, 'busyMs')?.get).toBeTypeOf('function');
  });
});

describe('TimesFM through the forecast protocol', () => {
  it('a multivariate input is each variable forecast as its own series', async () => {
    const fc = localForecaster(model);
    const other = series.map((v) => 50 - v * 2);
    const res = await fc.forecast({
      model: 'tfm',
      inputs: [{ type: 'multivariate_time_series', name: 'mv', series: series.map((v, t) => [v, other[t]]), frequency: 'month' }],
      options: { horizon: 5, quantiles: [0.1, 0.9] },
    });
    expect(res.status).toBe('completed');
    const alone = await model.predict([Float32Array.from(series), Float32Array.from(other)], 5, { frequencies: ['month', 'month'] });
    const mean = res.outputs[0].content[0].mean_forecast as number[][];
    mean.forEach((step, h) => step.forEach((v, j) => expect(Math.fround(v)).toBe(alone.mean![j][h])));
  });

  it('missing values are filled before the model: inner gaps interpolated, leading ones dropped', async () => {
    const gappy: Array<number | null> = [null, null, ...series];
    gappy[40] = null;
    const filled = [...series];
    filled[38] = (series[37] + series[39]) / 2;
    const fc = localForecaster(model);
    const res = await fc.forecast({ model: 'tfm', inputs: [{ type: 'univariate_time_series', name: 'g', series: gappy, frequency: 'D' }], options: { horizon: 4 } });
    const direct = await model.predict([Float32Array.from(filled)], 4, { frequencies: ['D'] });
    (res.outputs[0].content[0].mean_forecast as number[]).forEach((v, h) => expect(Math.abs(v - direct.mean![0][h])).toBeLessThan(1e-4));
  });

  it('a horizon past 128 is rolled out; past the protocol maximum it is a 400 invalid_horizon', async () => {
    const fc = localForecaster(model);
    const long = await fc.forecast({ model: 'tfm', inputs: [{ type: 'univariate_time_series', name: 's', series, frequency: 'D' }], options: { horizon: 200, quantiles: [0.5] } });
    expect(long.outputs[0].content[0].mean_forecast).toHaveLength(200);
    await expect(fc.forecast({ model: 'tfm', inputs: [{ type: 'univariate_time_series', name: 's', series, frequency: 'D' }], options: { horizon: 5000 } })).rejects.toMatchObject({ issues: [{ path: 'options.horizon' }] });
  });
});

describe('TimesFM on session replicas (worker threads)', () => {
  it('a call is cut into one run per replica and answers as the in-thread model, bit for bit', async () => {
    const runs: number[] = [];
    const pooled = await loadTimesFm(MODEL_20, { cacheDir, name: 'tfm', session: { worker: true, replicas: 2, intraOpThreads: 1 }, onRun: (rows) => runs.push(rows) });
    try {
      const batch = [0, 1, 2, 3].map((k) => Float32Array.from(series, (v) => v * (k + 1)));
      const [a, b] = [await pooled.predict(batch, 16), await model.predict(batch, 16)];
      expect(runs).toEqual([2, 2]);
      expect(a.values).toEqual(b.values);
      expect(a.mean).toEqual(b.mean);
      // The replicas' packed copy of the weights goes where the loader was told to cache, not into the user's cache.
      expect(readdirSync(join(cacheDir, 'graphs')).filter((d) => d.startsWith('packed-'))).toHaveLength(1);
    } finally {
      await pooled.dispose();
    }
  });
});

describe('TimesFM checkpoints inferkit cannot build say why', () => {
  it('a config field the builder does not handle, or one the tensors contradict, is a model_load_failed naming it', async () => {
    const dir = mkdtempSync(join(cacheDir, 'bad-'));
    cpSync(MODEL_20, dir, { recursive: true });
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...config, use_positional_embedding: true }));
    await expect(loadTimesFm(dir, { cacheDir })).rejects.toMatchObject({ code: 'model_load_failed', param: 'use_positional_embedding' });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...config, freq_size: 2 }));
    await expect(loadTimesFm(dir, { cacheDir })).rejects.toMatchObject({ code: 'model_load_failed', param: 'freq_size' });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...config, hidden_size: 32 }));
    await expect(loadTimesFm(dir, { cacheDir })).rejects.toMatchObject({ code: 'model_load_failed', message: expect.stringMatching(/decoder\.freq_emb\.weight.*model\.safetensors|model\.safetensors.*decoder\.freq_emb\.weight/) });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...config, horizon_length: 256 }));
    await expect(loadTimesFm(dir, { cacheDir })).rejects.toMatchObject({ code: 'model_load_failed', param: 'horizon_ff_layer.output_layer.weight' });
  });
});
