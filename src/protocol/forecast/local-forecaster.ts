import type { CallOptions, Forecaster } from '../../contract/predictor.js';
import { ForecastRequestSchema, type ForecastRequestInput, type ForecastResponse } from '../../contract/forecast.js';
import { parseContract } from '../../contract/parse.js';
import type { ForecastModel } from '../../runtime/forecast/forecast-model.js';
import { echoFrequencies } from './echo-frequencies.js';
import { forecast, type ForecastCallOptions } from './forecast.js';

/**
 * The in-kernel {@link Forecaster}: parses each request with ForecastRequestSchema (a
 * ValidationError lists every problem with its path) and answers it with {@link forecast}.
 * Request-level errors reject; per-series failures come back as outputs with `status: "error"`.
 * Each output's `frequency` is written back as the caller spelled it (`"D"` stays `"D"`), as the
 * server answers.
 */
export function localForecaster(model: ForecastModel, options: Omit<ForecastCallOptions, 'signal'> = {}): Forecaster {
  return {
    name: model.name,
    async forecast(request: ForecastRequestInput, call: CallOptions = {}): Promise<ForecastResponse> {
      const parsed = parseContract(ForecastRequestSchema, request, 'forecast request');
      return echoFrequencies(await forecast(model, parsed, { ...options, signal: call.signal }), request);
    },
  };
}
