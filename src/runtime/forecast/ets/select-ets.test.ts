import { describe, expect, it } from 'vitest';
import { isInferkitError } from '../../../errors.js';
import { etsFilter } from './ets-filter.js';
import { fitEtsSpec } from './ets-fit.js';
import { candidateSpecs, etsName, parseEtsName } from './ets-spec.js';
import { normalGenerator } from './random.js';
import { selectEts } from './select-ets.js';

/** y_t = ℓ_{t-1} + e_t, ℓ_t = ℓ_{t-1} + α·e_t (ETS(A,N,N)), seeded. */
function simulateAnn(alpha: number, n: number, sigma: number, seed: number): Float64Array {
  const draw = normalGenerator(seed);
  let level = 100;
  return Float64Array.from({ length: n }, () => {
    const e = sigma * draw();
    const y = level + e;
    level += alpha * e;
    return y;
  });
}

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};

describe('ETS family and fit', () => {
  it('lists the 15 stable models on positive seasonal data, as forecast::ets', () => {
    const names = candidateSpecs({ seasonal: true, positive: true }).map(etsName);
    expect(names).toHaveLength(15);
    expect(names).not.toContain('ANM');
    expect(names).not.toContain('AAM');
    expect(names).not.toContain('AAdM');
    expect(candidateSpecs({ seasonal: false, positive: false }).map(etsName)).toEqual(['ANN', 'AAN', 'AAdN']);
    expect(parseEtsName('mAdm')).toEqual({ error: 'M', trend: 'Ad', season: 'M' });
  });

  it('filters by hand: ANN with α = 0.5 from level 0 on [2, 4]', () => {
    const r = etsFilter([2, 4], { error: 'A', trend: 'N', season: 'N' }, { alpha: 0.5, beta: 0, gamma: 0, phi: 1 }, { level: 0, trend: 0, season: Float64Array.of(0) });
    // e1 = 2, ℓ1 = 1; e2 = 3, ℓ2 = 2.5; SSE = 13.
    expect(r.final.level).toBe(2.5);
    expect(r.sse).toBe(13);
    expect(r.loss).toBeCloseTo(2 * Math.log((2 * Math.PI * 13) / 2) + 2, 12);
  });

  it('ANN on a constant series keeps the constant level', () => {
    const fit = fitEtsSpec(new Float64Array(30).fill(7), { error: 'A', trend: 'N', season: 'N' }, 1);
    expect(fit?.final.level).toBeCloseTo(7, 6);
  });

  it('recovers a known SES α (0.3) from 2,000 simulated values', () => {
    const fit = fitEtsSpec(simulateAnn(0.3, 2000, 1, 11), { error: 'A', trend: 'N', season: 'N' }, 1);
    expect(fit?.params.alpha).toBeGreaterThan(0.25);
    expect(fit?.params.alpha).toBeLessThan(0.35);
    expect(fit?.sigma2).toBeGreaterThan(0.9);
    expect(fit?.sigma2).toBeLessThan(1.1);
  });

  it('AAN follows a straight line exactly', () => {
    const fit = fitEtsSpec(Float64Array.from({ length: 40 }, (_, t) => 5 + 2 * t), { error: 'A', trend: 'A', season: 'N' }, 1);
    expect(fit?.final.level).toBeCloseTo(5 + 2 * 39, 4);
    expect(fit?.final.trend).toBeCloseTo(2, 4);
  });

  it('AICc selects an additive trend on a trending series (and no trend on a level one)', () => {
    const draw = normalGenerator(3);
    const trending = Float64Array.from({ length: 120 }, (_, t) => -60 + t + draw());
    const sel = selectEts(trending);
    expect(sel.model).toBe('AAN');
    expect(sel.candidates.map((c) => c.model)).toEqual(['ANN', 'AAN', 'AAdN']);
    const flat = Float64Array.from({ length: 120 }, () => draw());
    expect(selectEts(flat).model).toBe('ANN');
  });

  it('skips multiplicative models on non-positive data with a note, and refuses one asked for', () => {
    const y = Float64Array.from({ length: 48 }, (_, t) => 10 * Math.sin((2 * Math.PI * t) / 12) + (t % 5));
    const sel = selectEts(y, { season: 12 });
    expect(sel.notes).toEqual(['multiplicative error and season skipped: the series has values ≤ 0']);
    expect(sel.candidates.every((c) => !c.model.includes('M'))).toBe(true);
    const e = thrown(() => selectEts(y, { season: 12, model: 'MNM' }));
    expect(isInferkitError(e) && e.param === 'model' && /needs values > 0/.test(e.message)).toBe(true);
  });

  it('names the field on bad input', () => {
    const short = thrown(() => selectEts([1, 2, 3]));
    expect(isInferkitError(short) && short.param === 'series' && /at least 5 values, got 3/.test(short.message)).toBe(true);
    const nan = thrown(() => selectEts([1, 2, Number.NaN, 4, 5, 6]));
    expect(isInferkitError(nan) && nan.code === 'invalid_request' && /^series\[2\]/.test(nan.message)).toBe(true);
    const bad = thrown(() => selectEts([1, 2, 3, 4, 5, 6], { model: 'XYZ' }));
    expect(isInferkitError(bad) && bad.param === 'model').toBe(true);
    const seasonal = thrown(() => selectEts([1, 2, 3, 4, 5, 6], { model: 'AAA', season: 12 }));
    expect(isInferkitError(seasonal) && /two seasons/.test(seasonal.message)).toBe(true);
  });
});
