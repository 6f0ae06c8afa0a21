import { describe, expect, it } from 'vitest';
import type { ForecastRequestInput } from '../../contract/forecast.js';
import { InferkitError } from '../../errors.js';
import type { ForecastModel } from '../../runtime/forecast/forecast-model.js';
import { seasonalNaive } from '../../runtime/forecast/seasonal-naive.js';
import { errorResponse, toApiError } from './error-response.js';
import { localForecaster } from './local-forecaster.js';

const fc = localForecaster(seasonalNaive({ name: 'snaive' }), { maxHorizon: 50 });
const valid: ForecastRequestInput = {
  model: 'snaive',
  inputs: [{ type: 'univariate_time_series', name: 'a', series: [1, 2, 3], frequency: 'D' }],
  options: { horizon: 2 },
};

/** The API error a request is rejected with. */
async function rejection(request: unknown): Promise<ReturnType<typeof toApiError>> {
  const err = await fc.forecast(request as ForecastRequestInput).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InferkitError);
  return toApiError(err);
}

describe('request-level errors', () => {
  it('unknown model → model_not_found, not_found_error, param model', async () => {
    expect(await rejection({ ...valid, model: 'chronos' })).toEqual({
      code: 'model_not_found',
      type: 'not_found_error',
      param: 'model',
      message: 'model "chronos" is not served here; this forecaster serves "snaive"',
    });
  });

  it('horizon beyond the maximum → invalid_horizon', async () => {
    expect(await rejection({ ...valid, options: { horizon: 51 } })).toEqual({
      code: 'invalid_horizon',
      type: 'invalid_request_error',
      param: 'options.horizon',
      message: 'options.horizon: horizon 51 exceeds the maximum of 50 steps (model "snaive" forecasts Infinity natively)',
    });
  });

  it.each([
    [{ options: { horizon: 0 } }, 'invalid_horizon', 'options.horizon', 'forecast request: options.horizon: expected a positive horizon'],
    [{ options: { horizon: 2, quantiles: [0.5, 1.5] } }, 'invalid_quantile', 'options.quantiles[1]', 'forecast request: options.quantiles[1]: expected a quantile level in (0, 1)'],
    [{ inputs: [{ ...valid.inputs[0], frequency: 'fortnight' }] }, 'invalid_frequency', 'inputs[0].frequency', 'unknown frequency "fortnight"'],
    [{ inputs: [{ ...valid.inputs[0], type: 'tabular' }] }, 'invalid_time_series_type', 'inputs[0].type', 'unknown time series type "tabular"'],
    [{ inputs: [{ ...valid.inputs[0], series: [1, 'x'] }] }, 'invalid_series', 'inputs[0].series[1]', 'expected a finite number or null, got "x"'],
    [{ inputs: [{ ...valid.inputs[0], start_timestamp: '2024-02-30' }] }, 'invalid_series', 'inputs[0].start_timestamp', 'expected an ISO 8601 timestamp'],
    [{ inputs: [valid.inputs[0], valid.inputs[0]] }, 'invalid_request', 'inputs[1].name', 'duplicate name "a" (also inputs[0].name)'],
    [{ model: undefined }, 'invalid_request', 'model', 'forecast request: model:'],
  ])('schema violation %# → %s at %s', async (patch, code, param, message) => {
    const e = await rejection({ ...valid, ...patch });
    expect(e).toMatchObject({ code, param, type: 'invalid_request_error' });
    expect(e.message).toContain(message);
  });

  it('errorResponse wraps any error as a ForecastResponse body', () => {
    const body = errorResponse(new InferkitError('model_not_found', 'no such model', { param: 'model' }), 'x');
    expect({ ...body, id: '<uuid>', created_at: 0 }).toMatchInlineSnapshot(`
      {
        "created_at": 0,
        "error": {
          "code": "model_not_found",
          "message": "no such model",
          "param": "model",
          "type": "not_found_error",
        },
        "id": "<uuid>",
        "model": "x",
        "outputs": [],
        "status": "error",
      }
    `);
    expect(toApiError(new TypeError('boom'))).toEqual({ code: 'internal', message: 'internal error: boom', param: null, type: 'server_error' });
    expect(toApiError(new InferkitError('model_not_ready', 'loading'))).toMatchObject({ type: 'service_unavailable_error' });
    expect(toApiError(new InferkitError('inference_failed', 'ort'))).toMatchObject({ code: 'inference_failed', type: 'server_error' });
  });
});

describe('per-output model errors', () => {
  it('non-finite model output fails that input only, as model_error', async () => {
    const inner = seasonalNaive({ name: 'flaky' });
    const flaky: ForecastModel = {
      ...inner,
      name: 'flaky',
      async predict(batch, horizon, options) {
        const f = await inner.predict(batch, horizon, options);
        f.values[0][0] = Number.POSITIVE_INFINITY;
        return f;
      },
    };
    const res = await localForecaster(flaky).forecast({ ...valid, model: 'flaky', inputs: [valid.inputs[0], { ...valid.inputs[0], name: 'b' }] });
    expect(res.status).toBe('partial');
    expect(res.outputs[0].error).toEqual({ code: 'model_error', type: 'server_error', param: 'inputs[0]', message: 'the model returned non-finite values for inputs[0] ("a")' });
    expect(res.outputs[1].status).toBe('completed');
  });

  it('a forecast start beyond year 9999 fails that input as invalid_series', async () => {
    const res = await fc.forecast({ ...valid, inputs: [{ ...valid.inputs[0], frequency: 'Y', start_timestamp: '9990-01-01' }], options: { horizon: 20 } });
    expect(res.status).toBe('error');
    expect(res.outputs[0].error).toMatchObject({ code: 'invalid_series', param: 'inputs[0].start_timestamp' });
  });
});

describe('toApiError for client mistakes outside the schema', () => {
  it('types 405, 413 and unsupported as invalid_request_error, never server_error', () => {
    for (const code of ['method_not_allowed', 'payload_too_large', 'unsupported'] as const) {
      const e = toApiError(new InferkitError(code, `no: ${code}`));
      expect(e).toMatchObject({ code, type: 'invalid_request_error', message: `no: ${code}` });
    }
  });
});
