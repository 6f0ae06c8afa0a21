import type { CallOptions, Forecaster } from '../../contract/predictor.js';
import { ForecastRequestSchema, type ForecastRequest, type ForecastRequestInput, type ForecastResponse } from '../../contract/forecast.js';
import { parseContract } from '../../contract/parse.js';
import type { ForecastModel } from '../../runtime/forecast/forecast-model.js';
import { echoFrequencies } from './echo-frequencies.js';
import { forecast, type ForecastCallOptions } from './forecast.js';

/** What {@link localForecaster} makes: a Forecaster that also answers a request its caller has parsed already (internal). */
export interface LocalForecaster extends Forecaster {
  /**
   * {@link forecast} of a request already parsed with ForecastRequestSchema, without parsing it again (the
   * server's route parses each body once, to find its model). Frequencies come back canonical: the caller
   * echoes them as sent.
   */
  forecastParsed(request: ForecastRequest, call?: CallOptions): Promise<ForecastResponse>;
}

/**
 * The in-kernel {@link Forecaster}: parses each request with ForecastRequestSchema (a
 * ValidationError lists every problem with its path) and answers it with {@link forecast}.
 * Request-level errors reject; per-series failures come back as outputs with `status: "error"`.
 * Each output's `frequency` is written back as the caller spelled it (`"D"` stays `"D"`), as the
 * server answers.
 */
export function localForecaster(model: ForecastModel, options: Omit<ForecastCallOptions, 'signal'> = {}): Forecaster {
  const forecastParsed = (parsed: ForecastRequest, call: CallOptions = {}): Promise<ForecastResponse> => forecast(model, parsed, { ...options, signal: call.signal });
  // A LocalForecaster (see takesParsed), typed as the public Forecaster.
  const local: LocalForecaster = {
    name: model.name,
    async forecast(request: ForecastRequestInput, call: CallOptions = {}): Promise<ForecastResponse> {
      const parsed = parseContract(ForecastRequestSchema, request, 'forecast request');
      return echoFrequencies(await forecastParsed(parsed, call), request);
    },
    forecastParsed,
  };
  return local;
}

/** Whether `f` is a {@link localForecaster} (it takes parsed requests). */
export function takesParsed(f: Forecaster): f is LocalForecaster {
  return typeof (f as Partial<LocalForecaster>).forecastParsed === 'function';
}
