import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../../eval/datasets.js';
import { evaluate } from '../../../eval/evaluate.js';
import { BASELINE_LEVELS } from '../baseline-model.js';
import { seasonalNaive } from '../seasonal-naive.js';
import { normalQuantile } from '../seasonality.js';
import { autoEts } from './auto-ets.js';
import type { EtsFit } from './ets-fit.js';
import { etsForecast } from './ets-forecast.js';
import { selectEts } from './select-ets.js';

const nnFit = (error: 'A' | 'M', alpha: number, sigma2: number): EtsFit => ({
  spec: { error, trend: 'N', season: 'N' },
  m: 1,
  params: { alpha, beta: 0, gamma: 0, phi: 1 },
  init: { level: 10, trend: 0, season: Float64Array.of(0) },
  final: { level: 10, trend: 0, season: Float64Array.of(0) },
  n: 50,
  np: 3,
  loglik: 0,
  aic: 0,
  aicc: 0,
  sigma2,
});

/** A seasonal series with a multiplicative pattern, level growth and noise (values > 0). */
function seasonal(n: number, seed = 1): Float64Array {
  let s = seed;
  const noise = (): number => ((s = (s * 16807) % 2147483647) / 2147483647 - 0.5) * 4;
  return Float64Array.from({ length: n }, (_, t) => (100 + t) * (1 + 0.3 * Math.sin((2 * Math.PI * t) / 12)) + noise());
}

describe('etsForecast', () => {
  it('gives the analytic ETS(A,N,N) spread σ·√(1 + α²(h−1)), growing with h', () => {
    const f = etsForecast(nnFit('A', 0.4, 4), 5, { levels: BASELINE_LEVELS });
    expect(Array.from(f.point)).toEqual([10, 10, 10, 10, 10]);
    Array.from(f.sd ?? []).forEach((sd, i) => expect(sd).toBeCloseTo(2 * Math.sqrt(1 + 0.16 * i), 12));
    expect(f.quantiles).toBeUndefined();
  });

  it('simulates multiplicative models: seeded, repeatable, ordered, widening, right at h = 1', () => {
    const fit = nnFit('M', 0.5, 0.01);
    const a = etsForecast(fit, 12, { levels: BASELINE_LEVELS, seed: 5 });
    const b = etsForecast(fit, 12, { levels: BASELINE_LEVELS, seed: 5 });
    const c = etsForecast(fit, 12, { levels: BASELINE_LEVELS, seed: 6 });
    expect(a.quantiles).toEqual(b.quantiles);
    expect(a.quantiles).not.toEqual(c.quantiles);
    const q = a.quantiles ?? new Float64Array();
    const at = (level: number, h: number): number => q[BASELINE_LEVELS.indexOf(level) * 12 + h];
    for (let h = 0; h < 12; h++) {
      const col = BASELINE_LEVELS.map((l) => at(l, h));
      expect([...col].sort((x, z) => x - z)).toEqual(col);
    }
    // h = 1: y = μ(1 + ε), ε ~ N(0, σ²), so the 90% quantile is μ(1 + 1.2816σ) up to sampling error.
    const expected = a.point[0] * (1 + normalQuantile(0.9) * Math.sqrt(fit.sigma2));
    expect(Math.abs(at(0.9, 0) - expected) / (expected - a.point[0])).toBeLessThan(0.1);
    const width = (h: number): number => at(0.9, h) - at(0.1, h);
    expect(width(11)).toBeGreaterThan(1.5 * width(0));
  });

  it('simulates a fitted MAM model with quantiles around its point forecast', () => {
    const { fit, model } = selectEts(seasonal(96), { season: 12, model: 'MAM' });
    expect(model).toBe('MAM');
    const f = etsForecast(fit, 12, { levels: BASELINE_LEVELS });
    const median = f.quantiles?.subarray(BASELINE_LEVELS.indexOf(0.5) * 12, BASELINE_LEVELS.indexOf(0.5) * 12 + 12) ?? [];
    Array.from(median).forEach((v, h) => expect(Math.abs(v - f.point[h]) / f.point[h]).toBeLessThan(0.02));
  });
});

describe('autoEts', () => {
  it('AAA on a seasonal series beats seasonal naive on the held-out year', async () => {
    const y = Float32Array.from(seasonal(120, 3).map((v, t) => v - 150 + 0.5 * t));
    const [train, test] = [y.subarray(0, 108), y.subarray(108)];
    const ets = await autoEts({ model: 'AAA' }).predict([train], 12, { frequencies: ['month'] });
    const naive = await seasonalNaive().predict([train], 12, { frequencies: ['month'] });
    const mae = (f: Float32Array | undefined): number => test.reduce((a, v, h) => a + Math.abs(v - (f?.[h] ?? Number.NaN)), 0) / 12;
    expect(mae(ets.mean?.[0])).toBeLessThan(0.6 * mae(naive.mean?.[0]));
  });

  it('beats seasonal naive on AirPassengers (MASE, 3 folds) with ordered quantiles', async () => {
    const air = (await loadDataset('classic_series')).filter((s) => s.name === 'AirPassengers');
    const [e, n] = [await evaluate(autoEts(), air, { horizon: 12 }), await evaluate(seasonalNaive(), air, { horizon: 12 })];
    expect(e.mase).toBeLessThan(n.mase);
    expect(e.coverage).toBeGreaterThan(0.5);
  });

  it('handles gaps and short series without failing the batch', async () => {
    const gappy = Float32Array.from(seasonal(60), (v, t) => (t === 0 || t === 30 || t === 59 ? Number.NaN : v));
    const f = await autoEts().predict([gappy, Float32Array.of(3, 4, 5)], 4, { frequencies: ['month', 'month'] });
    expect(Array.from(f.mean?.[0] ?? []).every(Number.isFinite)).toBe(true);
    expect(Array.from(f.mean?.[1] ?? [])).toEqual([5, 5, 5, 5]);
    const q10 = BASELINE_LEVELS.indexOf(0.1);
    const lower = Array.from(f.values[1].subarray(q10 * 4, q10 * 4 + 4));
    lower.slice(1).forEach((v, h) => expect(v).toBeLessThan(lower[h]));
  });
});

describe('autoEts({ model })', () => {
  it('rejects an unknown name at once, and falls back to AICc on a series the model cannot take', async () => {
    expect(() => autoEts({ model: 'AXA' })).toThrow(/model: "AXA" is not an ETS model/);
    const f = await autoEts({ model: 'MAM' }).predict([Float32Array.from({ length: 30 }, (_, t) => t - 10)], 3, { frequencies: ['month'] });
    Array.from(f.mean?.[0] ?? []).forEach((v, h) => expect(v).toBeCloseTo(20 + h, 3));
  });
});
