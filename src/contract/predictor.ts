import type { ForecastRequestInput, ForecastResponse } from './forecast.js';
import type { V1PredictRequest, V1PredictResponse } from './v1.js';
import type { V2InferRequest, V2InferResponse, V2ModelMetadata } from './v2.js';

/** Options every model call accepts. */
export interface CallOptions {
  /** Cancels the call. */
  signal?: AbortSignal;
}

/**
 * A model answering the V1 and V2 inference protocols. Implemented in the kernel (`runtime/`) and
 * remotely (`client/`), so a notebook swaps one for the other and nothing else changes.
 */
export interface Predictor {
  /** The name under which the model is served (`--model_name`). */
  readonly name: string;
  /** V1 `:predict`: `{instances}` → `{predictions}`. */
  predictV1(request: V1PredictRequest, options?: CallOptions): Promise<V1PredictResponse>;
  /** V2 `/infer`: BYTES texts → tensor outputs. */
  inferV2(request: V2InferRequest, options?: CallOptions): Promise<V2InferResponse>;
  /** True when the model can answer. */
  ready(options?: CallOptions): Promise<boolean>;
  /** V2 model metadata with real input and output tensors. */
  metadata(options?: CallOptions): Promise<V2ModelMetadata>;
}

/**
 * A model answering the forecast API. Implemented in the kernel and remotely. Request-level
 * problems reject: with a ValidationError in the kernel, with an HttpError (status 400/404, the
 * server's ForecastResponse with `status: "error"` in `.body`) remotely. Per-series failures do not
 * reject: they are outputs with `status: "error"` and the response is `partial`.
 */
export interface Forecaster {
  /** The model name requests are checked against (`model` field). */
  readonly name: string;
  /** `POST /v1/timeseries/forecast`. */
  forecast(request: ForecastRequestInput, options?: CallOptions): Promise<ForecastResponse>;
}
