import { randomUUID } from 'node:crypto';
import type { ApiError, ForecastResponse } from '../../contract/forecast.js';
import { isInferkitError } from '../../errors.js';

/**
 * The forecast API's error object for any thrown value. `code` is specific where the field tells:
 * `invalid_horizon` (options.horizon), `invalid_quantile` (options.quantiles…, options.level…),
 * `invalid_frequency`, `invalid_time_series_type`, `invalid_series` (inputs[i].series…,
 * inputs[i].start_timestamp), `invalid_covariates` (inputs[i].past_covariates…, inputs[i].future_covariates…),
 * `invalid_request` otherwise; `model_not_found`; other inferkit codes
 * as they are; `internal` for foreign errors. `type`: `invalid_request_error` (client mistakes),
 * `not_found_error` (unknown model), `service_unavailable_error` (not ready), `server_error`.
 */
export function toApiError(err: unknown): ApiError {
  if (!isInferkitError(err)) {
    const why = err instanceof Error ? err.message : String(err);
    return { code: 'internal', message: `internal error: ${why}`, param: null, type: 'server_error' };
  }
  const param = err.param ?? null;
  switch (err.code) {
    case 'invalid_request':
      return { code: codeForParam(param), message: err.message, param, type: 'invalid_request_error' };
    case 'payload_too_large':
    case 'method_not_allowed':
    case 'unsupported':
      return { code: err.code, message: err.message, param, type: 'invalid_request_error' };
    case 'model_not_found':
      return { code: 'model_not_found', message: err.message, param, type: 'not_found_error' };
    case 'model_not_ready':
      return { code: 'model_not_ready', message: err.message, param, type: 'service_unavailable_error' };
    default:
      return { code: err.code, message: err.message, param, type: 'server_error' };
  }
}

function codeForParam(param: string | null): string {
  if (param === null) {
    return 'invalid_request';
  }
  if (param === 'options.horizon') {
    return 'invalid_horizon';
  }
  if (param.startsWith('options.quantiles') || param.startsWith('options.level')) {
    return 'invalid_quantile';
  }
  if (/^inputs\[\d+\]\.frequency$/.test(param)) {
    return 'invalid_frequency';
  }
  if (/^inputs\[\d+\]\.type$/.test(param)) {
    return 'invalid_time_series_type';
  }
  if (/^inputs\[\d+\]\.(series|start_timestamp)/.test(param)) {
    return 'invalid_series';
  }
  if (/^inputs\[\d+\]\.(past|future)_covariates/.test(param)) {
    return 'invalid_covariates';
  }
  return 'invalid_request';
}

/**
 * A whole-request failure as a ForecastResponse body (for the server's 400/404/5xx answers):
 * `status: "error"`, `error` from {@link toApiError}, no outputs, `model` as requested.
 */
export function errorResponse(err: unknown, model: string): ForecastResponse {
  return {
    id: randomUUID(),
    created_at: Math.floor(Date.now() / 1000),
    status: 'error',
    error: toApiError(err),
    model,
    outputs: [],
  };
}
