import type { ApiError, ForecastWarning, TimeSeriesForecast, TimeSeriesInput, Usage } from '../contract/forecast.js';

/** Progress of a batch, counted in series: settled (`done`, failures included), `failed`, `total`. */
export interface BatchProgress {
  done: number;
  total: number;
  failed: number;
}

/** A series that could not be forecast, with the error the service (or the request, or the frame) gave. */
export interface SeriesFailure {
  name: string;
  error: ApiError;
  /** The model that failed it, in a several-model batch. */
  model?: string;
}

/** A warning an output carried (e.g. `covariates_ignored`: the model forecast the series without its covariates). */
export interface SeriesWarning {
  name: string;
  warning: ForecastWarning;
  /** The model that gave it, in a several-model batch. */
  model?: string;
}

/** The outcome of a batch: forecasts in input order, failures, warnings, summed usage. */
export interface BatchForecastResult {
  /** `completed`, `partial` (some series failed) or `error` (all failed). */
  status: 'completed' | 'partial' | 'error';
  /** The inputs sent (from a frame: the series that could be read). */
  inputs: TimeSeriesInput[];
  forecasts: TimeSeriesForecast[];
  /** Series that failed: in the frame (bad spacing, too short…), in a request, or in the model. */
  failures: SeriesFailure[];
  /** Warnings of the forecasts (a model that cannot use the covariates sent: `covariates_ignored`). */
  warnings: SeriesWarning[];
  usage: Usage;
  /** Requests sent, retries of split chunks included. */
  requests: number;
}
