import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../../eval/datasets.js';
import { fitArima } from './arima-fit.js';
import { arimaName } from './arima-spec.js';
import { autoArimaForecast } from './auto-arima.js';
import { parseRArima, readReference } from './r-reference.js';
import { selectArima } from './select-arima.js';

/** R's auto.arima on the 12 classic series (../shared/reference/r-forecast): chosen model, log-likelihood, AICc, forecasts. */
const fits = await readReference('arima-fits.csv');
const forecasts = (await readReference('forecasts.csv')).filter((r) => r.method === 'arima');
const series = new Map((await loadDataset('classic_series')).map((s) => [s.name, Float64Array.from(s.values, Number)]));

describe('ARIMA against R forecast::auto.arima', () => {
  it.each(fits)('$id: R\'s model fitted here reaches R\'s log-likelihood', (ref) => {
    const order = parseRArima(ref.r_model, Number(ref.season));
    const fit = fitArima(series.get(ref.id) ?? [], order);
    expect(fit.loglik).toBeGreaterThan(Number(ref.loglik) - 0.01);
    expect(fit.loglik).toBeLessThan(Number(ref.loglik) + 0.5);
    expect(Math.abs(fit.aicc - Number(ref.aicc))).toBeLessThan(0.05);
  });

  it('the stepwise search picks R\'s model on most series and never one with a worse AICc', () => {
    let same = 0;
    for (const ref of fits) {
      const sel = selectArima(series.get(ref.id) ?? [], { season: Number(ref.season) });
      const theirs = arimaName(parseRArima(ref.r_model, Number(ref.season)));
      same += sel.name === theirs ? 1 : 0;
      expect(sel.fit.aicc, `${ref.id}: ${sel.name} vs R's ${theirs}`).toBeLessThan(Number(ref.aicc) + 0.01);
    }
    expect(same).toBeGreaterThanOrEqual(7);
  });

  it('forecasts and 80% intervals match R\'s where the same model is chosen', () => {
    let compared = 0;
    for (const ref of fits) {
      const rows = forecasts.filter((r) => r.id === ref.id);
      const f = autoArimaForecast(series.get(ref.id) ?? [], rows.length, { season: Number(ref.season), calibrate: false });
      if (f.model !== arimaName(parseRArima(ref.r_model, Number(ref.season)))) {
        continue;
      }
      compared++;
      rows.forEach((r, h) => {
        const width = Number(r.hi80) - Number(r.lo80);
        expect(Math.abs(f.point[h] - Number(r.mean)) / width).toBeLessThan(0.01);
        // σ² as R's auto.arima: Σ residual² / (n_used − coefficients). R's sum also holds the first d + mD
        // residuals of its diffuse start (≈ y_t/1000), which widens its intervals by up to 2% (co2, austres).
        expect(Math.abs((2 * 1.2815515655446004 * f.sd[h]) / width - 1)).toBeLessThan(0.025);
      });
    }
    expect(compared).toBeGreaterThanOrEqual(7);
  });
});
