import { describe, expect, it } from 'vitest';
import { autoArima } from './arima/auto-arima.js';
import { autoEts } from './ets/auto-ets.js';
import { intermittent } from './intermittent/intermittent.js';
import type { ForecastModel } from './forecast-model.js';
import { mstl } from './mstl/mstl.js';
import { seasonalNaive } from './seasonal-naive.js';
import { theta } from './theta.js';

/** Awkward series every offline model must answer with finite, ordered quantiles. */
const CASES: Record<string, number[]> = {
  constant: new Array(40).fill(5),
  zeros: new Array(40).fill(0),
  huge: Array.from({ length: 40 }, (_, t) => 1e9 + 1e7 * Math.sin(t)),
  tiny: Array.from({ length: 40 }, (_, t) => 1e-6 * (2 + Math.sin(t))),
  negative: Array.from({ length: 40 }, (_, t) => -100 - t + Math.sin(t)),
  outlier: Array.from({ length: 40 }, (_, t) => (t === 20 ? 1e6 : 10 + (t % 12))),
  intermittent: Array.from({ length: 40 }, (_, t) => (t % 7 === 0 ? 5 : 0)),
  'five values': [1, 2, 3, 4, 5],
  'level shift': Array.from({ length: 40 }, (_, t) => (t < 20 ? 1 : 1000)),
  exponential: Array.from({ length: 60 }, (_, t) => Math.exp(t / 5)),
  gaps: Array.from({ length: 40 }, (_, t) => (t % 3 === 0 ? Number.NaN : t)),
};

describe.each([autoEts(), autoArima(), mstl(), theta(), seasonalNaive(), intermittent('tsb'), intermittent('imapa')] as ForecastModel[])('$name on awkward series', (model) => {
  it.each(Object.entries(CASES))('%s: finite, ordered quantiles', async (_name, y) => {
    const H = 24;
    const f = await model.predict([Float32Array.from(y)], H, { frequencies: ['month'] });
    expect(Array.from(f.values[0]).every(Number.isFinite)).toBe(true);
    expect(Array.from(f.mean?.[0] ?? []).every(Number.isFinite)).toBe(true);
    for (let h = 0; h < H; h++) {
      for (let q = 1; q < f.levels.length; q++) {
        expect(f.values[0][q * H + h]).toBeGreaterThanOrEqual(f.values[0][(q - 1) * H + h]);
      }
    }
  });
});

describe('constant series', () => {
  it('AutoETS, AutoARIMA and MSTL forecast the constant with no spread', async () => {
    for (const model of [autoEts(), autoArima(), mstl()]) {
      const f = await model.predict([new Float32Array(48).fill(7)], 6, { frequencies: ['month'] });
      expect(Array.from(f.values[0]).every((v) => Math.abs(v - 7) < 1e-6)).toBe(true);
    }
  });
});
