import type { ModelGraphInfo } from '../../checkpoint/resolve-model-graph.js';
import type { Frequency } from '../../contract/enums.js';
import type { ForecastRollout } from '../../contract/forecast.js';

/** Per-call options of {@link ForecastModel.predict}. */
export interface PredictOptions {
  /** One frequency per series (same order as the batch); baselines use it for the season. */
  frequencies?: readonly Frequency[];
  /** Cancels the call between chunks. */
  signal?: AbortSignal;
  /**
   * Called as each run's series are ready, before the call ends (`indices` into the batch; `values[k]`
   * and `mean[k]` are series `indices[k]`'s): a server answers those requests early. Models that run a
   * batch at once may never call it; the call's result is complete either way.
   */
  onChunk?: (indices: readonly number[], forecast: ModelForecast) => void;
}

/**
 * What a model returns for a batch: `values[i]` is series i's forecast, level-major
 * `[levels.length × horizon]` (`values[i][q * horizon + h]`); `mean[i]` (length horizon) when the
 * model has its own mean, else absent (callers use the median).
 */
export interface ModelForecast {
  /** Quantile levels of `values`, ascending (the model's native levels). */
  levels: readonly number[];
  /** One Float32Array [levels × horizon] per input series. */
  values: Float32Array[];
  /** One Float32Array [horizon] per input series, when the model forecasts a mean. */
  mean?: Float32Array[];
  /**
   * `predictTasks` only: what the model could not use of a task (e.g. past-only covariates a model with
   * exogenous regressors cannot read), by task index; the protocol puts each on that input's output `warnings`.
   */
  taskWarnings?: Array<{ task: number; code: string; message: string; field?: 'past_covariates' | 'future_covariates' }>;
}

/**
 * One request input as a jointly forecast group, for models that read groups and covariates (Chronos-2,
 * {@link ForecastModel.predictTasks}). Every array has the input's length; NaN = missing.
 */
export interface ForecastTask {
  /** The input's variables, forecast jointly (one for a univariate input). */
  targets: Float32Array[];
  /** Histories of the past-only covariates, in the request's key order. */
  pastCovariates: Float32Array[];
  /** Known-future covariates, in the request's key order: history and the horizon's values. */
  futureCovariates: Array<{ history: Float32Array; future: Float32Array }>;
}

/**
 * A forecasting model in the kernel: one interface for Chronos-Bolt ONNX and the offline
 * baselines. Series are Float32Arrays with NaN for missing values; `predict` answers at most
 * `nativeHorizon` steps (the protocol rolls out longer horizons, see `rollout`).
 */
export interface ForecastModel {
  /** Name requests are checked against. */
  readonly name: string;
  /** Most steps one `predict` call answers; `Infinity` for models that forecast any horizon directly. */
  readonly nativeHorizon: number;
  /** Native quantile levels, ascending. */
  readonly quantiles: readonly number[];
  /** Steps per input patch (usage is counted in patches); absent = 1. */
  readonly patchSize?: number;
  /** Longest context the model reads; longer series are cut to their most recent part. */
  readonly contextLength?: number;
  /**
   * How the protocol forecasts beyond `nativeHorizon` unless a call asks otherwise: `quantiles`
   * (every quantile path, pooled and reduced; Chronos-Bolt's default) or `median` (the point path).
   * Absent = `median`.
   */
  readonly rollout?: ForecastRollout;
  /**
   * True when its calls share one run queue that forms every run from all their waiting series (Chronos-Bolt,
   * TimesFM: see RunQueue): a server then hands each turn's requests over as a call at once, calls overlapping
   * freely. Otherwise a server runs a few merged calls at a time and queues the rest.
   */
  readonly sharesRunQueue?: boolean;
  /** Milliseconds the model's worker threads spent on runs so far (summed over replicas); absent when it cannot tell. */
  readonly busyMs?: number;
  /** Where its graph came from (a published ONNX file, or built from the checkpoint's weights file); absent for a model made from a graph path or without one. */
  readonly graph?: ModelGraphInfo;
  /**
   * Models that forecast groups jointly and read covariates (Chronos-2): forecasts every task's targets, any
   * horizon (the model rolls out past `nativeHorizon` its own way); `values` (and `mean`) hold one row per
   * target, tasks in order. When present the protocol calls this instead of `predict`; models without it get
   * each variable as its own series and the protocol warns about covariates they did not use.
   */
  predictTasks?(tasks: readonly ForecastTask[], horizon: number, options?: PredictOptions): Promise<ModelForecast>;
  /** Forecasts `horizon` (≤ nativeHorizon) steps for every series of `batch`. */
  predict(batch: readonly Float32Array[], horizon: number, options?: PredictOptions): Promise<ModelForecast>;
  /** Releases native resources (sessions). Safe to call twice. */
  dispose(): Promise<void>;
}

/** `model` with its {@link ForecastModel.graph} set, in place: a session model's getter (`busyMs`) stays live, as a copy would not keep it. */
export function withGraph<M extends ForecastModel>(model: M, graph: ModelGraphInfo): M {
  Object.defineProperty(model, 'graph', { value: graph, enumerable: true });
  return model;
}
