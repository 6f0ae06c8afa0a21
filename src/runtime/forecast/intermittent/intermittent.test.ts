import { describe, expect, it } from 'vitest';
import { baselineOf } from '../../../manifest/baseline-args.js';
import { createBaseline } from '../baseline-spec.js';
import { seasonalNaive } from '../seasonal-naive.js';
import { intermittent, INTERMITTENT_METHODS } from './intermittent.js';
import { intermittentScore, zeroInflatedDemand } from './intermittent-metrics.js';

const H = 12;
const items = zeroInflatedDemand(100, 72);

/** Mean scaled MSE and scaled bias of a model over the zero-inflated set (history = first 60, actual = last 12). */
async function score(model: ReturnType<typeof intermittent>): Promise<{ mse: number; bias: number }> {
  const batch = items.map((y) => Float32Array.from(y.subarray(0, 60)));
  const f = await model.predict(batch, H, { frequencies: ['month'] });
  let mse = 0;
  let bias = 0;
  let n = 0;
  items.forEach((y, i) => {
    const s = intermittentScore(y.subarray(0, 60), y.subarray(60), f.mean?.[i] ?? []);
    if (Number.isFinite(s.scaledMse)) {
      mse += s.scaledMse;
      bias += s.scaledBias;
      n++;
    }
  });
  return { mse: mse / n, bias: bias / n };
}

describe('intermittent demand', () => {
  it('is served by name (baseline/croston, sba, tsb, adida, imapa) and built from a spec', async () => {
    expect(baselineOf('baseline/croston-sba')).toBe('croston-sba');
    expect(baselineOf('SBA')).toBe('croston-sba');
    expect(INTERMITTENT_METHODS.map((m) => baselineOf(`baseline/${m}`))).toEqual([...INTERMITTENT_METHODS]);
    const model = createBaseline({ kind: 'tsb', options: { alpha: 0.2 } });
    expect(model.name).toBe('tsb');
    const f = await model.predict([Float32Array.of(0, 3, 0, 0, 3, 0)], 3);
    expect(f.mean?.[0][0]).toBeGreaterThan(0);
    expect(() => intermittent('tsb', { alpha: 0 })).toThrow(/alpha/);
  });

  it('Croston by hand: sizes 4, 6 and intervals 2, 3 smoothed with α = 0.5 → (5 / 2.5) and SBA × 0.75', async () => {
    const y = Float32Array.of(0, 4, 0, 0, 6);
    const c = await intermittent('croston', { alpha: 0.5 }).predict([y], 2);
    const sba = await intermittent('croston-sba', { alpha: 0.5 }).predict([y], 2);
    expect(c.mean?.[0][0]).toBeCloseTo(5 / 2.5, 6);
    expect(sba.mean?.[0][1]).toBeCloseTo(0.75 * (5 / 2.5), 6);
  });

  it('TSB decays towards zero when demand stops; Croston does not', async () => {
    const y = Float32Array.from({ length: 60 }, (_, t) => (t < 30 && t % 3 === 0 ? 5 : 0));
    const t = await intermittent('tsb').predict([y], 1);
    const c = await intermittent('croston').predict([y], 1);
    expect(t.mean?.[0][0]).toBeLessThan(0.2 * (c.mean?.[0][0] ?? 0));
  });

  it('on a zero-inflated set every method beats seasonal naive on scaled MSE, and SBA is less biased than Croston', async () => {
    const naive = await score(seasonalNaive({ season: 1 }) as ReturnType<typeof intermittent>);
    const scores = Object.fromEntries(await Promise.all(INTERMITTENT_METHODS.map(async (m) => [m, await score(intermittent(m))] as const)));
    for (const m of INTERMITTENT_METHODS) {
      expect(scores[m].mse, m).toBeLessThan(naive.mse);
    }
    expect(Math.abs(scores['croston-sba'].bias)).toBeLessThan(Math.abs(scores.croston.bias));
  });

  it('quantiles are ordered and never negative on non-negative demand; no demand → 0', async () => {
    const f = await intermittent('imapa').predict([Float32Array.from(items[0].subarray(0, 60)), new Float32Array(20)], 6);
    expect(Math.min(...f.values[0])).toBeGreaterThanOrEqual(0);
    for (let q = 1; q < f.levels.length; q++) {
      expect(f.values[0][q * 6]).toBeGreaterThanOrEqual(f.values[0][(q - 1) * 6]);
    }
    expect(Array.from(f.values[1]).every((v) => v === 0)).toBe(true);
  });
});
