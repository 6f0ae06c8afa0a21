import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../../eval/datasets.js';
import { readReference } from '../arima/r-reference.js';
import { selectEts } from './select-ets.js';

/** R forecast::ets on the 12 classic series, every specification (../shared/reference/r-forecast/ets-fits.csv). */
const rows = await readReference('ets-fits.csv');
const series = new Map((await loadDataset('classic_series')).map((s) => [s.name, Float64Array.from(s.values, Number)]));

describe('ETS fits against R forecast::ets', () => {
  it('the same model on the same data reaches R\'s log-likelihood (−0.01) in at least 95% of the fits', () => {
    const fits = rows.filter((r) => r.spec !== 'auto');
    const short: string[] = [];
    for (const r of fits) {
      const { fit } = selectEts(series.get(r.id) ?? [], { season: Number(r.season), model: r.spec });
      if (fit.loglik < Number(r.loglik) - 0.01) {
        short.push(`${r.id} ${r.spec}: ${(fit.loglik - Number(r.loglik)).toFixed(2)}`);
      }
    }
    expect(fits.length).toBe(153);
    expect(short.length, short.join('; ')).toBeLessThanOrEqual(Math.floor(0.05 * fits.length));
  });

  it('the automatic choice is within 1 AICc unit of R\'s choice on every series, and lower on most', () => {
    let lower = 0;
    for (const r of rows.filter((x) => x.spec === 'auto')) {
      const sel = selectEts(series.get(r.id) ?? [], { season: Number(r.season) });
      expect(sel.fit.aicc, `${r.id}: ${sel.model} vs R's ${r.r_model}`).toBeLessThan(Number(r.aicc) + 1);
      lower += sel.fit.aicc < Number(r.aicc) - 0.01 ? 1 : 0;
    }
    // AirPassengers: R's MAdM (−526.08) is 0.5 above our best MAdM fit, so MAM is chosen (AICc +0.7).
    expect(lower).toBeGreaterThanOrEqual(8);
  });
});
