import { describe, expect, it } from 'vitest';
import { parkMiller } from '../../../../test/fixtures/seeded.js';
import { baselineOf } from '../../../manifest/baseline-args.js';
import { localForecaster } from '../../../protocol/forecast/local-forecaster.js';
import { createBaseline } from '../baseline-spec.js';
import { autoArima, autoArimaForecast } from './auto-arima.js';

/** A deterministic AR(1) noise sequence (φ = 0.6) from a fixed linear congruential generator. */
function ar1(n: number, seed = 7): Float64Array {
  const u = parkMiller(seed);
  const out = new Float64Array(n);
  let prev = 0;
  for (let t = 0; t < n; t++) {
    const z = Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
    prev = 0.6 * prev + z;
    out[t] = prev;
  }
  return out;
}

describe('autoArima', () => {
  it('is served by name (baseline/auto-arima, arima) and built from a spec', async () => {
    expect(baselineOf('baseline/auto-arima')).toBe('auto-arima');
    expect(baselineOf('AutoARIMA')).toBe('auto-arima');
    const model = createBaseline({ kind: 'auto-arima', options: { name: 'my-arima' } });
    expect(model.name).toBe('my-arima');
    const y = Float32Array.from({ length: 48 }, (_, t) => 100 + 10 * Math.sin((2 * Math.PI * t) / 12) + t);
    const f = await model.predict([y], 12, { frequencies: ['month'] });
    expect(f.values[0]).toHaveLength(15 * 12);
    // The seasonal shape continues: the forecast one season ahead tracks the last season plus the trend.
    for (let h = 0; h < 12; h++) {
      expect(Math.abs((f.mean?.[0][h] ?? 0) - (y[36 + h] + 12))).toBeLessThan(2);
    }
  });

  it('takes regressors: recovers their effect and forecasts with the future columns', () => {
    const n = 120;
    const H = 10;
    const promo = Float64Array.from({ length: n + H }, (_, t) => (t % 9 < 2 ? 1 : 0));
    const noise = ar1(n);
    const y = Float64Array.from({ length: n }, (_, t) => 50 + 8 * promo[t] + noise[t]);
    const past = [promo.subarray(0, n)];
    const on = autoArimaForecast(y, H, { regressors: { past, future: [new Float64Array(H).fill(1)] } });
    const off = autoArimaForecast(y, H, { regressors: { past, future: [new Float64Array(H).fill(0)] } });
    expect(on.model).toMatch(/^Regression with ARIMA/);
    for (let h = 0; h < H; h++) {
      expect(on.point[h] - off.point[h]).toBeGreaterThan(7);
      expect(on.point[h] - off.point[h]).toBeLessThan(9);
    }
    expect(() => autoArimaForecast(y, H, { regressors: { past, future: [] } })).toThrow(/future_covariates/);
  });

  it('reads future_covariates on the wire (regression with ARIMA errors); no covariates_ignored warning', async () => {
    const n = 120;
    const H = 6;
    const promo = Array.from({ length: n + H }, (_, t) => (t % 9 < 2 ? 1 : 0));
    const noise = ar1(n, 11);
    const series = Array.from({ length: n }, (_, t) => 50 + 8 * promo[t] + noise[t]);
    const fc = localForecaster(autoArima({ name: 'arima' }));
    const ask = (future: number[]) =>
      fc.forecast({
        model: 'arima',
        inputs: [{ type: 'univariate_time_series' as const, name: 's', series, frequency: 'D', past_covariates: { promo: promo.slice(0, n) }, future_covariates: { promo: future } }],
        options: { horizon: H },
      });
    const on = (await ask(new Array(H).fill(1))).outputs[0];
    const off = (await ask(new Array(H).fill(0))).outputs[0];
    expect(on.warnings ?? []).toEqual([]);
    const lift = (on.content[0].mean_forecast as number[]).map((v, h) => v - (off.content[0].mean_forecast as number[])[h]);
    expect(Math.min(...lift)).toBeGreaterThan(7);
    expect(Math.max(...lift)).toBeLessThan(9);
  });

  it('one value forecasts flat with no spread; a series with nothing observed falls back to naive', () => {
    const one = autoArimaForecast([5], 3);
    expect(Array.from(one.point)).toEqual([5, 5, 5]);
    expect(Array.from(one.sd)).toEqual([0, 0, 0]);
    const none = autoArimaForecast([Number.NaN, Number.NaN], 2);
    expect(none.model).toBe('naive');
  });

  it('falls back to seasonal naive where no ARIMA can be fitted (an exactly repeating profile), and says so on the wire', async () => {
    // Seasonal strength 1 → D = 1, and every seasonally differenced value is exactly 0: no candidate
    // has a likelihood, so the search genuinely fails (no hook, no mock).
    const profile = [112, 118, 132, 129, 121, 135, 148, 148, 136, 119, 104, 118];
    const series = Array.from({ length: 36 }, (_, t) => profile[t % 12]);
    const f = autoArimaForecast(series, 14, { season: 12 });
    expect(f.model).toBe('seasonal-naive');
    expect(f.fallback).toMatch(/no acceptable model/);
    expect(Array.from(f.point)).toEqual([...profile, 112, 118]);
    const out = await localForecaster(autoArima({ name: 'arima' })).forecast({
      model: 'arima',
      inputs: [
        { type: 'univariate_time_series' as const, name: 'profile', series, frequency: 'M' },
        { type: 'univariate_time_series' as const, name: 'noisy', series: series.map((v, t) => v + 0.37 * t + ((t * 7) % 5)), frequency: 'M' },
      ],
      options: { horizon: 3 },
    });
    expect(out.outputs[0].warnings).toEqual([expect.objectContaining({ code: 'model_fallback', message: expect.stringMatching(/fell back to the seasonal-naive forecast/) })]);
    expect(out.outputs[0].content[0].mean_forecast).toEqual([112, 118, 132]);
    expect(out.outputs[1].warnings ?? []).toEqual([]);
  });

  it('refuses a bad maxContext at construction', () => {
    expect(() => autoArima({ maxContext: 2 })).toThrow(/maxContext/);
  });
});
