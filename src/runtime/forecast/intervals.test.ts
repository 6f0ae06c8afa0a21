import { describe, expect, it } from 'vitest';
import { autoArima } from './arima/auto-arima.js';
import { autoEts } from './ets/auto-ets.js';
import type { ForecastModel } from './forecast-model.js';
import { mstl } from './mstl/mstl.js';
import { seasonalNaive } from './seasonal-naive.js';
import { theta } from './theta.js';

const H = 12;
const Q10 = 3;
const Q90 = 11;

/** A positive monthly seasonal series (78–197) whose level jumps by 60% twelve steps before the end. */
const shifted = Float32Array.from({ length: 96 }, (_, t) => (100 + 20 * Math.sin((2 * Math.PI * t) / 12) + 3 * Math.cos(t * 1.3)) * (t >= 84 ? 1.6 : 1));

describe('intervals that stay sane', () => {
  it.each([theta(), mstl(), autoEts(), seasonalNaive(), autoArima()] as ForecastModel[])('$name: after a level shift the 80% interval stays positive and within the data\'s range', async (model) => {
    const f = await model.predict([shifted], H, { frequencies: ['month'] });
    for (let h = 0; h < H; h++) {
      const lo = f.values[0][Q10 * H + h];
      const hi = f.values[0][Q90 * H + h];
      // Theta's interval at h = 6 was [−1240, 1525] before the calibration was bounded and made robust.
      expect(lo).toBeGreaterThan(0);
      expect(hi).toBeLessThan(1.5 * 197);
      expect(hi - lo).toBeLessThan(197);
    }
  });

  it('short positive series (20 monthly values, < 2 seasons): no forecast below zero', async () => {
    const short = Float32Array.from({ length: 20 }, (_, t) => 100 + 20 * Math.sin(t / 3) - t * 0.5);
    for (const model of [autoEts(), theta(), mstl(), autoArima()]) {
      const f = await model.predict([short], 24, { frequencies: ['month'] });
      expect(Math.min(...(f.mean?.[0] ?? [])), model.name).toBeGreaterThan(0);
    }
  });

  it('AutoETS on a short falling positive series picks no undamped trend and stays positive', async () => {
    // 20 values falling from 120 to 80: a straight line would cross zero within the two-year horizon.
    const falling = Float32Array.from({ length: 20 }, (_, t) => 120 - 2 * t + 3 * Math.sin(t));
    const f = await autoEts().predict([falling], 48, { frequencies: ['month'] });
    expect(Math.min(...(f.mean?.[0] ?? []))).toBeGreaterThan(0);
  });

  it('MSTL on fewer than 5 values: the last value with a random walk\'s growing spread', async () => {
    const f = await mstl().predict([Float32Array.of(10, 12, 11, 13)], 4, { frequencies: ['month'] });
    const width = (h: number): number => f.values[0][Q90 * 4 + h] - f.values[0][Q10 * 4 + h];
    expect(f.mean?.[0][0]).toBeCloseTo(13, 5);
    expect(width(0)).toBeGreaterThan(0);
    expect(width(3) / width(0)).toBeCloseTo(2, 1);
  });
});
