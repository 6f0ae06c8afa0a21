import { describe, expect, it } from 'vitest';
import { isInferkitError } from '../../errors.js';
import { seasonalNaive } from '../../runtime/forecast/seasonal-naive.js';
import { localForecaster } from './local-forecaster.js';
import { toApiError } from './error-response.js';

const fc = localForecaster(seasonalNaive({ name: 'sn' }));
const series = Array.from({ length: 30 }, (_, t) => 10 + (t % 7));
const temp = series.map((v) => v / 2);
const promoPast = series.map((_, t) => t % 2);

function body(input: Record<string, unknown>, horizon = 4) {
  return { model: 'sn', inputs: [{ type: 'univariate_time_series' as const, name: 's', series, frequency: 'D', ...input }], options: { horizon } };
}

/** The rejection's first param and its API error code. */
async function rejection(request: ReturnType<typeof body>): Promise<{ param: string | null | undefined; code: string; message: string }> {
  try {
    await fc.forecast(request);
  } catch (e) {
    if (!isInferkitError(e)) {
      throw e;
    }
    const api = toApiError(e);
    return { param: api.param, code: api.code, message: api.message };
  }
  throw new Error('expected a rejection');
}

describe('covariates on the wire (inferkit extension)', () => {
  it('a past covariate shorter than the series is rejected naming it', async () => {
    const r = await rejection(body({ past_covariates: { temp: temp.slice(1) } }));
    expect(r).toMatchObject({ param: 'inputs[0].past_covariates.temp', code: 'invalid_covariates' });
    expect(r.message).toMatch(/expected 30 values/);
  });

  it('a future covariate that does not cover exactly the horizon is rejected naming it', async () => {
    const r = await rejection(body({ past_covariates: { promo: promoPast }, future_covariates: { promo: [1, 0, 1] } }, 4));
    expect(r).toMatchObject({ param: 'inputs[0].future_covariates.promo', code: 'invalid_covariates' });
    expect(r.message).toMatch(/expected 4 values/);
  });

  it('a future covariate without its history in past_covariates is rejected naming it', async () => {
    const r = await rejection(body({ future_covariates: { promo: [1, 0, 1, 0] } }));
    expect(r).toMatchObject({ param: 'inputs[0].future_covariates.promo', code: 'invalid_covariates' });
    expect(r.message).toMatch(/no history/);
  });

  it('a model that cannot read covariates answers from the series and says so in a covariates_ignored warning', async () => {
    const withCov = await fc.forecast(body({ past_covariates: { temp, promo: promoPast }, future_covariates: { promo: [1, 0, 1, 0] } }));
    const plain = await fc.forecast(body({}));
    const out = withCov.outputs[0];
    expect(out?.status).toBe('completed');
    expect(out?.warnings).toEqual([expect.objectContaining({ code: 'covariates_ignored', param: 'inputs[0].past_covariates' })]);
    expect(out?.warnings?.[0]?.message).toMatch(/"temp", "promo"/);
    expect(out?.content[0]?.mean_forecast).toEqual(plain.outputs[0]?.content[0]?.mean_forecast);
    expect(plain.outputs[0]?.warnings).toBeUndefined();
    // Covariates are inputs, not echoed onto the forecast.
    expect(out?.content[0]).not.toHaveProperty('past_covariates');
    expect(out?.content[0]).not.toHaveProperty('future_covariates');
  });
});
