import { describe, expect, it } from 'vitest';
import { normals } from '../../../../test/fixtures/seeded.js';
import { loadDataset } from '../../../eval/datasets.js';
import { evaluate } from '../../../eval/evaluate.js';
import { autoArima, autoArimaForecast } from './auto-arima.js';

/** AR(1) (φ = 0.5) around 100 whose noise is `late`× larger over the last 40 values. */
function ar1(n: number, seed: number, late = 1): Float64Array {
  const e = normals(n, seed);
  let prev = 0;
  return e.map((v, t) => {
    prev = 0.5 * prev + v * (t >= n - 40 ? late : 1);
    return 100 + prev;
  });
}

describe('AutoARIMA interval calibration', () => {
  it('widens, at most twice, when the recent hold-out errors outgrow the fitted σ; the point forecast is unchanged', () => {
    const y = ar1(200, 5, 4);
    const raw = autoArimaForecast(y, 12, { calibrate: false });
    const cal = autoArimaForecast(y, 12);
    expect(cal.model).toBe(raw.model);
    expect(Array.from(cal.point)).toEqual(Array.from(raw.point));
    expect(cal.calibration).toBeGreaterThan(1.5);
    expect(cal.calibration).toBeLessThanOrEqual(2);
    cal.sd.forEach((v, h) => expect(v / raw.sd[h]).toBeCloseTo(cal.calibration ?? 0, 9));
  });

  it('never narrows the model\'s own interval', () => {
    for (const seed of [1, 2, 3]) {
      const y = ar1(200, seed);
      const raw = autoArimaForecast(y, 12, { calibrate: false });
      const cal = autoArimaForecast(y, 12);
      expect(cal.calibration).toBeGreaterThanOrEqual(1);
      cal.sd.forEach((v, h) => expect(v).toBeGreaterThanOrEqual(raw.sd[h]));
    }
  });

  it('on the 12 classic series (3 rolling origins) the 80% interval covers ≥ 0.74, up from R-style intervals\' < 0.72', { timeout: 120_000 }, async () => {
    const series = await loadDataset('classic_series');
    const coverage = async (calibrate: boolean): Promise<number> => {
      let inside = 0;
      let count = 0;
      for (const [frequency, horizon] of [['month', 12], ['quarter', 8], ['year', 6]] as const) {
        const group = series.filter((s) => s.frequency === frequency);
        const e = await evaluate(autoArima({ calibrate }), group, { horizon, folds: 3 });
        inside += e.coverage * group.length * 3 * horizon;
        count += group.length * 3 * horizon;
      }
      return inside / count;
    };
    const raw = await coverage(false);
    const cal = await coverage(true);
    expect(raw).toBeLessThan(0.72);
    expect(cal).toBeGreaterThan(0.74);
    expect(cal).toBeLessThan(0.85);
  });
});
