import { describe, expect, it } from 'vitest';
import { isInferkitError } from '../../errors.js';
import type { ForecastModel, ForecastTask } from '../../runtime/forecast/forecast-model.js';
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

describe('a model that reads tasks (predictTasks)', () => {
  /** Forecasts the last target value plus the first known-future covariate, and cannot use past-only covariates. */
  const lastPlusFuture: ForecastModel = {
    name: 'xreg',
    nativeHorizon: Number.POSITIVE_INFINITY,
    quantiles: [0.5],
    predict: () => Promise.reject(new Error('predictTasks only')),
    predictTasks: (tasks: readonly ForecastTask[], horizon: number) =>
      Promise.resolve({
        levels: [0.5],
        values: tasks.flatMap((t) => t.targets.map((x) => Float32Array.from({ length: horizon }, (_, h) => x[x.length - 1] + (t.futureCovariates[0]?.future[h] ?? 0)))),
        taskWarnings: tasks.flatMap((t, task) => (t.pastCovariates.length > 0 ? [{ task, code: 'covariates_ignored', message: 'past-only covariates are not used', field: 'past_covariates' as const }] : [])),
      }),
    dispose: () => Promise.resolve(),
  };

  it('gets each input with its covariates, and its task warnings land on that input', async () => {
    const res = await localForecaster(lastPlusFuture).forecast({
      model: 'xreg',
      inputs: [
        { type: 'univariate_time_series', name: 'plain', series: [1, 2, 3], frequency: 'D' },
        { type: 'univariate_time_series', name: 'cov', series: [1, 2, 5], frequency: 'D', past_covariates: { temp: [0, 0, 0], promo: [0, 1, 0] }, future_covariates: { promo: [10, 20] } },
      ],
      options: { horizon: 2 },
    });
    expect(res.outputs.map((o) => o.content[0]?.mean_forecast)).toEqual([[3, 3], [15, 25]]);
    expect(res.outputs[0]?.warnings).toBeUndefined();
    expect(res.outputs[1]?.warnings).toEqual([{ code: 'covariates_ignored', message: 'past-only covariates are not used', param: 'inputs[1].past_covariates' }]);
  });
});
