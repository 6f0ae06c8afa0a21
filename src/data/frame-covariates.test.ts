import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ForecastRequestInput } from '../contract/forecast.js';
import type { Forecaster } from '../contract/predictor.js';
import { localForecaster } from '../protocol/forecast/local-forecaster.js';
import { loadChronos2 } from '../runtime/forecast/chronos-2/load-chronos-2.js';
import type { Chronos2Model } from '../runtime/forecast/chronos-2/create-chronos-2.js';
import { seasonalNaive } from '../runtime/forecast/seasonal-naive.js';
import { batchForecast } from './batch-forecast.js';
import { crossValidation } from './cross-validation.js';
import type { Row } from './columns.js';
import { tempDir } from '../../test/fixtures/temp-dirs.js';

const day = (d: number): string => new Date(Date.UTC(2024, 0, 1 + d)).toISOString().slice(0, 10);
const N = 60;
const H = 5;
/** Two series with a temperature (past-only) and a promotion flag (known ahead) that drives sales. */
const history: Row[] = ['a', 'b'].flatMap((id, s) =>
  Array.from({ length: N }, (_, t) => {
    const promo = (t * (s + 3)) % 7 === 0 ? 1 : 0;
    return { unique_id: id, ds: day(t), y: 20 + 5 * Math.sin(t / 3) + 30 * promo + s, temp: 10 + (t % 9), promo };
  }),
);
const future: Row[] = ['a', 'b'].flatMap((id) => Array.from({ length: H }, (_, h) => ({ unique_id: id, ds: day(N + h), promo: h === 2 ? 1 : 0 })));
const covariates = { past: ['temp'], future: ['promo'] };

/** A real forecaster whose requests are kept, to see what went out on the wire. */
function recording(inner: Forecaster): Forecaster & { sent: ForecastRequestInput[] } {
  const sent: ForecastRequestInput[] = [];
  return { name: inner.name, sent, forecast: (req, call) => (sent.push(req), inner.forecast(req, call)) };
}

describe('covariate columns in batchForecast and crossValidation', () => {
  it('sends each series its columns as past_covariates and the future frame rows as future_covariates', async () => {
    const fc = recording(localForecaster(seasonalNaive({ name: 'sn' })));
    const res = await batchForecast(history, fc, { horizon: H, covariates, futureFrame: future });
    expect(res.status).toBe('completed');
    const sentA = fc.sent[0].inputs[0];
    expect(sentA.past_covariates?.temp).toEqual(history.filter((r) => r.unique_id === 'a').map((r) => r.temp));
    expect(sentA.past_covariates?.promo).toHaveLength(N);
    expect(sentA.future_covariates).toEqual({ promo: [0, 0, 1, 0, 0] });
    // Seasonal naive cannot use them: every series says so.
    expect(res.warnings.map((w) => [w.name, w.warning.code])).toEqual([['a', 'covariates_ignored'], ['b', 'covariates_ignored']]);
  });

  it('a series whose future rows do not cover the horizon fails alone; missing columns and a missing futureFrame are named', async () => {
    const short = future.filter((r) => !(r.unique_id === 'b' && r.ds === day(N + 4)));
    const res = await batchForecast(history, localForecaster(seasonalNaive({ name: 'sn' })), { horizon: H, covariates, futureFrame: short });
    expect(res.status).toBe('partial');
    expect(res.failures).toEqual([expect.objectContaining({ name: 'b', error: expect.objectContaining({ message: expect.stringMatching(/4 rows for this series, the horizon is 5/) }) })]);
    await expect(batchForecast(history, seasonalNaive({ name: 'sn' }), { horizon: H, covariates })).rejects.toThrow(/futureFrame/);
    await expect(batchForecast(history, seasonalNaive({ name: 'sn' }), { horizon: H, covariates: { past: ['humidity'] } })).rejects.toThrow(/missing covariate column\(s\) "humidity"/);
  });

  it('crossValidation cuts the covariates at each cutoff and sends the future ones actual values over the window', async () => {
    const fc = recording(localForecaster(seasonalNaive({ name: 'sn' })));
    const cv = await crossValidation(history, fc, { horizon: H, windows: 2, covariates });
    expect(cv.length).toBe(2 * 2 * H);
    const inputs = fc.sent.flatMap((r) => r.inputs);
    const promoA = history.filter((r) => r.unique_id === 'a').map((r) => r.promo as number);
    const first = inputs.find((i) => i.name.startsWith('a') && i.series.length === N - 2 * H);
    expect(first?.past_covariates?.temp).toHaveLength(N - 2 * H);
    expect(first?.future_covariates).toEqual({ promo: promoA.slice(N - 2 * H, N - H) });
  });
});

const SET = process.env.INFERKIT_CHRONOS2_CONFORMANCE ?? join(process.cwd(), '../shared/conformance/chronos-2');
const present = existsSync(join(SET, 'model', 'model.safetensors'));
let chronos2: Chronos2Model;
beforeAll(async () => {
  if (present) {
    chronos2 = await loadChronos2(join(SET, 'model'), { name: 'c2', cacheDir: tempDir('inferkit-c2-frames-') });
  }
}, 60_000);
afterAll(async () => {
  await chronos2?.dispose();
});

describe.skipIf(!present)('covariate columns reach Chronos-2', () => {
  it('batchForecast with covariates answers as the same request written by hand, and the covariates change the forecast', async () => {
    const withCov = await batchForecast(history, chronos2, { horizon: H, covariates, futureFrame: future });
    expect(withCov.warnings).toEqual([]);
    const a = history.filter((r) => r.unique_id === 'a');
    const byHand = await localForecaster(chronos2).forecast({
      model: 'c2',
      inputs: [{ type: 'univariate_time_series', name: 'a', series: a.map((r) => r.y as number), frequency: 'D', start_timestamp: '2024-01-01T00:00:00Z', past_covariates: { temp: a.map((r) => r.temp as number), promo: a.map((r) => r.promo as number) }, future_covariates: { promo: [0, 0, 1, 0, 0] } }],
      options: { horizon: H },
    });
    expect(withCov.forecasts[0].mean_forecast).toEqual(byHand.outputs[0].content[0].mean_forecast);
    const without = await batchForecast(history, chronos2, { horizon: H });
    expect(withCov.forecasts[0].mean_forecast).not.toEqual(without.forecasts[0].mean_forecast);
  });
});
