import { describe, expect, it } from 'vitest';
import { baselineOf } from '../../manifest/baseline-args.js';
import { localForecaster } from '../../protocol/forecast/local-forecaster.js';
import { autoArima } from './arima/auto-arima.js';
import { createBaseline } from './baseline-spec.js';
import { autoEts } from './ets/auto-ets.js';
import { statEnsemble } from './stat-ensemble.js';
import { theta } from './theta.js';

const y = Float32Array.from({ length: 60 }, (_, t) => 100 + 15 * Math.sin((2 * Math.PI * t) / 12) + 0.5 * t + 3 * Math.cos(t * 1.7));

describe('statEnsemble', () => {
  it('is the mean of AutoETS, AutoARIMA and Theta, quantile by quantile', async () => {
    const H = 6;
    const f = await statEnsemble().predict([y], H, { frequencies: ['month'] });
    const parts = await Promise.all([autoEts(), autoArima(), theta()].map((m) => m.predict([y], H, { frequencies: ['month'] })));
    for (let j = 0; j < f.values[0].length; j++) {
      const expected = parts.reduce((a, p) => a + p.values[0][j], 0) / 3;
      expect(f.values[0][j]).toBeCloseTo(expected, 2);
    }
    for (let h = 0; h < H; h++) {
      expect(f.mean?.[0][h]).toBeCloseTo(parts.reduce((a, p) => a + (p.mean?.[0][h] ?? 0), 0) / 3, 2);
    }
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
