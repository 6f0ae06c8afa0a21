import type { Frame } from './frame/frame.js';
import { z } from 'zod';
import {
  ForecastOptionsSchema, ForecastRequestSchema, intervalQuantiles, type TimeSeriesInput,
} from '../contract/forecast.js';
import { toValidationIssues } from '../contract/parse.js';
import { ValidationError } from '../errors.js';
import { columnNames, isDataFrame, type FrameLike, type Row } from './columns.js';
import { readFrameCovariates, type FrameCovariateOptions, type FrameCovariates } from './frame-covariates.js';
import { readFrameSeries, type FrameToInputsOptions } from './frame-to-inputs.js';
import { asForecasters, type ModelLike, type ModelSet } from './model-set.js';
import { modelsFrame } from './models-frame.js';
import type { BatchForecastResult, BatchProgress, SeriesFailure, SeriesWarning } from './batch-result.js';
import { runBatch } from './run-batch.js';

/** Options of `batchForecast`; frame-reading options apply when the source is a frame. */
export interface BatchForecastOptions extends FrameToInputsOptions {
  /** Steps to forecast. */
  horizon: number;
  /** Quantile levels in (0, 1); without them (and without `level`) only the mean is returned. */
  quantiles?: number[];
  /**
   * Prediction-interval levels in percent, as statsforecast takes them: `[80]` asks for quantiles 0.1 and
   * 0.9 (added to `quantiles`); a several-model frame names them `<model>-lo-80` and `<model>-hi-80`.
   */
  level?: number[];
  /**
   * Covariate columns of the source frame (an inferkit extension): each series' `past` and `future` columns go
   * out as its `past_covariates` (history); the `future` ones' values over the horizon come from `futureFrame`.
   * A model that cannot use them forecasts from the series alone and says so in `warnings`.
   */
  covariates?: FrameCovariates;
  /**
   * The `covariates.future` columns over the horizon, as statsforecast's `X_df`: id and timestamp columns (named
   * as in the source) and one row per series and future step — exactly `horizon` rows per series, else that
   * series fails alone.
   */
  futureFrame?: FrameLike;
  /** Series per request. @default 64 */
  chunkSize?: number;
  /** Requests in flight at once (per model). @default 4 */
  concurrency?: number;
  /** Model name sent in each request (one model only). @default forecaster.name */
  model?: string;
  /** Called with the initial state and after every request settles (series × models in a several-model batch). */
  onProgress?: (progress: BatchProgress) => void;
  /** Stops sending requests and cancels those in flight; the call rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** The outcome of a several-model batch: each model's own result and one wide frame of them all. */
export interface ModelsBatchResult {
  /** `completed`, `partial` (some series or models failed) or `error` (nothing forecast). */
  status: 'completed' | 'partial' | 'error';
  inputs: TimeSeriesInput[];
  /** Each model's result, by model name. */
  models: Record<string, BatchForecastResult>;
  /** Every model's failures, `model` set. */
  failures: SeriesFailure[];
  /** Every model's warnings (`covariates_ignored` …), `model` set. */
  warnings: SeriesWarning[];
  /**
   * One row per series and step: the id and timestamp columns (named as in the source frame), a column per
   * model with its mean (`theta`), per quantile (`theta-q0.1`) and per level (`theta-lo-80`, `theta-hi-80`);
   * a series no model could forecast gets one row with its error in an `error` column.
   */
  frame: Frame;
}

function isInputs(source: FrameLike | readonly TimeSeriesInput[]): source is readonly TimeSeriesInput[] {
  if (isDataFrame(source)) {
    return false;
  }
  const rows = source as readonly Row[];
  return rows.length === 0 || rows.every((r) => typeof r.name === 'string' && Array.isArray(r.series));
}

/** Quantile levels of interval levels in percent: 80 → 0.1 and 0.9. */
export function levelQuantiles(levels: readonly number[]): number[] {
  return levels.flatMap((l, i) => {
    if (!(typeof l === 'number' && l > 0 && l < 100)) {
      throw new ValidationError([{ path: `level[${i}]`, message: `expected a level in percent in (0, 100), got ${JSON.stringify(l)}` }]);
    }
    return intervalQuantiles(l);
  });
}

/** The quantiles to ask for: `quantiles` and those of `level`, distinct, ascending. */
export function requestedQuantiles(options: Pick<BatchForecastOptions, 'quantiles' | 'level'>): number[] {
  return [...new Set([...(options.quantiles ?? []), ...levelQuantiles(options.level ?? [])])].sort((a, b) => a - b);
}

/**
 * What a batch forwards to every request, under the forecast request's own rules for `options` and `model`,
 * and how it cuts the work (`chunkSize`, `concurrency`: positive integers).
 */
const ForwardedOptionsSchema = ForecastOptionsSchema.extend({
  model: ForecastRequestSchema.shape.model.optional(),
  chunkSize: z.number().int('expected a whole number of series').positive('expected at least 1 series per request').optional(),
  concurrency: z.number().int('expected a whole number of requests').positive('expected at least 1 request at once').optional(),
});

/**
 * Checks the options a batch forwards to every request (`horizon`, `quantiles`, `level`, `model`) by the
 * forecast request's rules, and `chunkSize` and `concurrency`, before any request is sent: a bad one would
 * fail every chunk alike. Throws a ValidationError naming the field as the request validation does
 * (`batchForecast: options.horizon: …`; `context` names the calling function).
 */
export function checkForwardedOptions(options: Partial<BatchForecastOptions> | undefined, context = 'batchForecast'): void {
  const { horizon, quantiles, level, model, chunkSize, concurrency } = options ?? {};
  const r = ForwardedOptionsSchema.safeParse({ horizon, quantiles, level, model, chunkSize, concurrency });
  if (!r.success) {
    throw new ValidationError(toValidationIssues(r.error, ['options']), { context });
  }
}

/**
 * Inputs of a source, with the frame's bad series as failures (they fail alone); a frame's `covariates` columns
 * attached (see readFrameCovariates; `historyOnly`: the future ones' history only, for crossValidation).
 */
export function readSource(source: FrameLike | readonly TimeSeriesInput[], options: FrameCovariateOptions, historyOnly = false): { inputs: TimeSeriesInput[]; rejected: SeriesFailure[] } {
  if (isInputs(source)) {
    return { inputs: [...source], rejected: [] };
  }
  const read = readFrameSeries(source as FrameLike, options);
  const covariates = options.covariates === undefined ? { inputs: read.inputs, issues: [] } : readFrameCovariates(source as FrameLike, read.inputs, options, historyOnly);
  const inputs = covariates.inputs;
  const issues = [...read.issues, ...covariates.issues];
  const rejected = issues.map((i): SeriesFailure => ({
    name: i.path,
    error: { code: 'invalid_series', message: i.message, param: i.path, type: 'invalid_request_error' },
  }));
  return { inputs, rejected };
}

/**
 * Forecasts many series through any Forecaster (in-kernel or remote) — or several models at once
 * (`[seasonalNaive(), theta()]`, `{ ets: remoteModel, … }`; ForecastModels are served in the kernel): chunks
 * of `chunkSize` series per request, `concurrency` requests at once, progress after each request.
 *
 * Options sent with every request (`horizon`, `quantiles`, `level`, `model`) are checked first, by the forecast
 * request's rules, and so are `chunkSize` and `concurrency`: a bad one throws a ValidationError naming it
 * (`options.horizon`) before any request.
 *
 * Failures stay with their series: a series of a frame that cannot be read (bad spacing, one timestamp,
 * non-numeric values) is reported in `failures` and the rest are forecast; a chunk rejected as a whole for an
 * invalid series is split in halves until the bad series are isolated; a chunk rejected for its options (a
 * horizon beyond the service's maximum) is not split, and that model's later chunks fail with the same error
 * unsent; a chunk that fails otherwise (network, server fault) reports each of its series failed with the reason.
 */
export async function batchForecast(source: FrameLike | readonly TimeSeriesInput[], forecaster: ModelLike, options: BatchForecastOptions): Promise<BatchForecastResult>;
export async function batchForecast(source: FrameLike | readonly TimeSeriesInput[], models: ModelSet, options: BatchForecastOptions): Promise<ModelsBatchResult>;
export async function batchForecast(
  source: FrameLike | readonly TimeSeriesInput[],
  models: ModelLike | ModelSet,
  options: BatchForecastOptions,
): Promise<BatchForecastResult | ModelsBatchResult> {
  checkForwardedOptions(options);
  const { inputs, rejected } = readSource(source, options);
  const quantiles = requestedQuantiles(options);
  const single = asForecasters(models);
  if (single.single) {
    return runBatch(inputs, single.forecasters[0][1], { ...options, quantiles }, rejected);
  }
  const results: Record<string, BatchForecastResult> = {};
  const total = (inputs.length + rejected.length) * single.forecasters.length;
  let before = 0;
  for (const [name, forecaster] of single.forecasters) {
    const base = before;
    results[name] = await runBatch(inputs, forecaster, {
      ...options,
      model: undefined,
      quantiles,
      onProgress: options.onProgress && ((p) => options.onProgress?.({ done: base + p.done, failed: base + p.failed, total })),
    }, rejected);
    before += inputs.length + rejected.length;
  }
  const failures = Object.entries(results).flatMap(([model, r]) => r.failures.map((f) => ({ ...f, model })));
  const warnings = Object.entries(results).flatMap(([model, r]) => r.warnings.map((w) => ({ ...w, model })));
  const statuses = Object.values(results).map((r) => r.status);
  const status = statuses.every((s) => s === 'completed') ? 'completed' : statuses.every((s) => s === 'error') ? 'error' : 'partial';
  const names = isInputs(source) ? { id: 'id', timestamp: 'timestamp' } : frameNames(source as FrameLike, options);
  const frame = modelsFrame(inputs, results, { ...names, quantiles: options.quantiles ?? [], level: options.level ?? [], rejected, timeZone: options.timeZone });
  return { status, inputs, models: results, failures, warnings, frame };
}

/** The id and timestamp column names of the source frame (statsforecast's when it uses them). */
function frameNames(frame: FrameLike, options: FrameToInputsOptions): { id: string; timestamp: string } {
  const columns = columnNames(frame);
  const has = (n: string): boolean => columns.includes(n);
  return {
    id: options.idColumn ?? (!has('id') && has('unique_id') ? 'unique_id' : 'id'),
    timestamp: options.timestampColumn ?? (!has('timestamp') && has('ds') ? 'ds' : 'timestamp'),
  };
}
