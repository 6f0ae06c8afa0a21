import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../../eval/datasets.js';
import { etsPoint } from './ets-forecast.js';
import { fitEtsSpec } from './ets-fit.js';
import { parseEtsName } from './ets-spec.js';
import { selectEts } from './select-ets.js';

/**
 * Reference fits recorded with statsmodels 0.15.0 `ETSModel(..., initialization_method="estimated")`
 * (maximum likelihood over the same "usual" parameter region) on the shipped classic series:
 * log-likelihood, α (β) and the first forecast. Ours may be higher (a better optimum), not lower.
 */
const REFERENCE = [
  { name: 'Nile', model: 'ANN', m: 1, llf: -638.11, alpha: 0.2467, f1: 805.0 },
  { name: 'Nile', model: 'MNN', m: 1, llf: -637.8, alpha: 0.1506, f1: 839.2 },
  { name: 'austres', model: 'AAN', m: 1, llf: -330.72, alpha: 0.9999, f1: 17704.8 },
  { name: 'LakeHuron', model: 'AAdN', m: 1, llf: -109.65, alpha: 0.9999, f1: 580.0 },
  { name: 'UKgas', model: 'MAM', m: 4, llf: -518.57, alpha: 0.0303, f1: 1258.8 },
] as const;

describe('selectEts against statsmodels ETSModel', () => {
  it.each(REFERENCE)('$name ETS($model): same likelihood, parameters and forecast', async (ref) => {
    const series = (await loadDataset('classic_series')).find((s) => s.name === ref.name);
    const y = (series?.values ?? []).map(Number);
    const { fit } = selectEts(y, { season: ref.m, model: ref.model });
    expect(fit.loglik).toBeGreaterThan(ref.llf - 0.05);
    expect(fit.loglik).toBeLessThan(ref.llf + 0.5);
    expect(Math.abs(fit.params.alpha - ref.alpha)).toBeLessThan(0.01);
    expect(Math.abs(etsPoint(fit, 1)[0] - ref.f1) / ref.f1).toBeLessThan(0.002);
  });

  it('the initial seasonal states are searched too: co2 ETS(A,A,A) reaches statsmodels\' −82.94 (plain fits do not)', async () => {
    const co2 = (await loadDataset('classic_series')).find((s) => s.name === 'co2');
    const y = (co2?.values ?? []).map(Number);
    const plain = fitEtsSpec(y, parseEtsName('AAA'), 12);
    const refined = selectEts(y, { season: 12, model: 'AAA' });
    expect(plain?.loglik).toBeLessThan(-90);
    expect(refined.fit.loglik).toBeGreaterThan(-82.94 - 0.05);
  });
});
