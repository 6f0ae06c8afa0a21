import { describe, expect, it } from 'vitest';
import { baselineOf } from '../../manifest/baseline-args.js';
import { localForecaster } from '../../protocol/forecast/local-forecaster.js';
import { autoArima } from './arima/auto-arima.js';
import { BASELINE_LEVELS } from './baseline-model.js';
import { createBaseline } from './baseline-spec.js';
import { holdoutWeights } from './ensemble-weights.js';
import { autoEts } from './ets/auto-ets.js';
import type { ForecastModel } from './forecast-model.js';
import { combineQuantiles } from './combine-quantiles.js';
import { seasonalNaive } from './seasonal-naive.js';
import { ensembleOf, statEnsemble } from './stat-ensemble.js';
import { theta } from './theta.js';

const y = Float32Array.from({ length: 60 }, (_, t) => 100 + 15 * Math.sin((2 * Math.PI * t) / 12) + 0.5 * t + 3 * Math.cos(t * 1.7));
const H = 6;
const parts = () => Promise.all([autoEts(), autoArima(), theta()].map((m) => m.predict([y], H, { frequencies: ['month'] })));

describe('statEnsemble', () => {
  it('with equal weights and combine "mean" is the mean of AutoETS, AutoARIMA and Theta, quantile by quantile', async () => {
    const f = await statEnsemble({ combine: 'mean', weighting: 'equal' }).predict([y], H, { frequencies: ['month'] });
    const p = await parts();
    for (let j = 0; j < f.values[0].length; j++) {
      expect(f.values[0][j]).toBeCloseTo(p.reduce((a, q) => a + q.values[0][j], 0) / 3, 2);
    }
  });

  it('by default mixes the members weighted by their hold-out error: the median lies among theirs, the 80% interval spans at least the narrowest', async () => {
    const [f] = (await statEnsemble().predict([y], H, { frequencies: ['month'] })).values;
    const p = (await parts()).map((q) => q.values[0]);
    const at = (v: Float32Array, level: number, h: number) => v[BASELINE_LEVELS.indexOf(level) * H + h];
    for (let h = 0; h < H; h++) {
      const medians = p.map((v) => at(v, 0.5, h));
      expect(at(f, 0.5, h)).toBeGreaterThanOrEqual(Math.min(...medians) - 1e-3);
      expect(at(f, 0.5, h)).toBeLessThanOrEqual(Math.max(...medians) + 1e-3);
      expect(at(f, 0.9, h) - at(f, 0.1, h)).toBeGreaterThanOrEqual(Math.min(...p.map((v) => at(v, 0.9, h) - at(v, 0.1, h))) - 1e-3);
      for (let l = 1; l < BASELINE_LEVELS.length; l++) {
        expect(at(f, BASELINE_LEVELS[l], h)).toBeGreaterThanOrEqual(at(f, BASELINE_LEVELS[l - 1], h));
      }
    }
  });

  it('weighs by 1 / MAE² on the hold-out; equal weights when a member has no hold-out forecast', () => {
    const actual = Float32Array.from([1, 2, 3, 10, 10, 10]);
    // Errors 1 and 2: weights 4:1.
    const w = holdoutWeights(actual, 3, [[11, 11, 11], [12, 12, 12]]);
    expect(w[0]).toBeCloseTo(0.8, 6);
    expect(w[1]).toBeCloseTo(0.2, 6);
    expect(holdoutWeights(actual, 3, [[11, 11, 11], undefined])).toEqual([0.5, 0.5]);
    expect(holdoutWeights(actual, 0, [[1], [2], [3]])).toEqual([1 / 3, 1 / 3, 1 / 3]);
  });

  it('leaves a failing member out of the series it fails on and names it; when all fail, answers seasonal naive', async () => {
    const broken: ForecastModel = { ...theta(), name: 'broken', predict: () => Promise.reject(new Error('boom')), predictTasks: () => Promise.reject(new Error('boom')) };
    const task = { targets: [y], pastCovariates: [], futureCovariates: [] };
    const f = await ensembleOf([broken, autoEts(), theta()], { weighting: 'equal' }).predictTasks?.([task], H, { frequencies: ['month'] });
    const two = await Promise.all([autoEts(), theta()].map((m) => m.predict([y], H, { frequencies: ['month'] })));
    expect(f?.values[0]).toEqual(combineQuantiles(two.map((p) => p.values[0]), BASELINE_LEVELS, H, 'mixture'));
    expect(f?.taskWarnings).toEqual([expect.objectContaining({ task: 0, code: 'model_fallback', message: expect.stringContaining('member broken failed') })]);
    const none = await ensembleOf([broken, broken]).predictTasks?.([task], H, { frequencies: ['month'] });
    expect(none?.values[0]).toEqual((await seasonalNaive().predict([y], H, { frequencies: ['month'] })).values[0]);
    expect(none?.taskWarnings?.map((w) => w.message)).toEqual([expect.stringContaining('broken failed'), expect.stringContaining('broken failed'), expect.stringContaining('answered by seasonal-naive')]);
  });

  it('is served by name and says on the wire that only its ARIMA member read the covariates', async () => {
    expect(baselineOf('baseline/stat-ensemble')).toBe('stat-ensemble');
    const model = createBaseline({ kind: 'stat-ensemble', options: { name: 'ens' } });
    const fc = localForecaster(model);
    const series = Array.from(y);
    const out = await fc.forecast({
      model: 'ens',
      inputs: [{ type: 'univariate_time_series' as const, name: 's', series, frequency: 'M', past_covariates: { x: series.map((_, t) => t % 2) }, future_covariates: { x: [0, 1, 0] } }],
      options: { horizon: 3 },
    });
    expect(out.outputs[0].status).toBe('completed');
    expect(out.outputs[0].warnings).toEqual([expect.objectContaining({ code: 'covariates_ignored', param: 'inputs[0]' })]);
  });
});
