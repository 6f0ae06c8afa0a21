import type { Frame } from './frame/frame.js';
import { normalizeFrequency } from '../contract/enums.js';
import type { TimeSeriesForecast, TimeSeriesInput } from '../contract/forecast.js';
import { ValidationError } from '../errors.js';
import { checkForwardedOptions, readSource, requestedQuantiles } from './batch-forecast.js';
import type { SeriesInput } from './build-series.js';
import { rowsToFrame, type FrameLike, type Row } from './columns.js';
import { stepTimestamps } from './forecast-to-frame.js';
import { cutCovariates, type FrameCovariates } from './frame-covariates.js';
import type { FrameToInputsOptions } from './frame-to-inputs.js';
import { asForecasters, type ModelLike, type ModelSet } from './model-set.js';
import { modelColumns, paths } from './models-frame.js';
import { runBatch } from './run-batch.js';

/** Options of {@link crossValidation}; frame-reading options apply when the source is a frame. */
export interface CrossValidationOptions extends FrameToInputsOptions {
  /** Steps forecast from each cutoff. */
  horizon: number;
  /** Cutoffs per series; the last one leaves exactly `horizon` values after it. @default 1 */
  windows?: number;
  /** Steps between consecutive cutoffs. @default horizon */
  step?: number;
  /** Quantile levels: a `<model>-q<level>` column each. */
  quantiles?: number[];
  /** Interval levels in percent: `<model>-lo-<l>` and `<model>-hi-<l>` columns. */
  level?: number[];
  /**
   * Covariate columns of the source frame (an inferkit extension; inputs carry their own `past_covariates`):
   * every window sends their history up to its cutoff, and the `future` ones' actual values over its horizon
   * as `future_covariates` (known-future, as statsforecast's cross_validation reads them from the frame).
   * Models that cannot use covariates forecast from the series alone (their outputs' `covariates_ignored`).
   */
  covariates?: FrameCovariates;
  /** Series per request. @default 64 */
  chunkSize?: number;
  /** Requests in flight at once. @default 4 */
  concurrency?: number;
  signal?: AbortSignal;
}

function positiveInt(v: number, path: string): number {
  if (!(Number.isInteger(v) && v > 0)) {
    throw new ValidationError([{ path, message: `expected a positive integer, got ${JSON.stringify(v)}` }]);
  }
  return v;
}

/**
 * Rolling-origin cross-validation, laid out like statsforecast's `cross_validation`: for window w of W the
 * cutoff is the last value before `n - horizon - (W-1-w)·step`; every model sees the series up to its cutoff
 * and forecasts `horizon` steps. Returns one row per series, cutoff and step: `unique_id`, `ds`, `cutoff`
 * (timestamps, in the series' offset or zone), `y` (the actual value, null where missing), and a column per
 * model (its mean), quantile and level. A series that cannot be read, is too short for any window or fails
 * in a model gets a row with its `error` (null cutoff) instead; windows a series is too short for are left out.
 */
export async function crossValidation(
  source: FrameLike | readonly TimeSeriesInput[],
  models: ModelLike | ModelSet,
  options: CrossValidationOptions,
): Promise<Frame> {
  // The forecast request's rules for what every window's request carries, before any model runs.
  checkForwardedOptions(options, 'crossValidation');
  const horizon = positiveInt(options.horizon, 'horizon');
  const windows = positiveInt(options.windows ?? 1, 'windows');
  const step = positiveInt(options.step ?? horizon, 'step');
  const { inputs, rejected } = readSource(source, options, true);
  const multi = inputs.find((i) => i.type !== 'univariate_time_series');
  if (multi) {
    throw new ValidationError([{ path: multi.name, message: 'crossValidation takes univariate series only' }]);
  }
  const { forecasters } = asForecasters(models);
  const quantiles = requestedQuantiles(options);
  const layout = { quantiles: options.quantiles ?? [], level: options.level ?? [] };
  const errors = new Map<string, string>(rejected.map((f) => [f.name, f.error.message]));
  // One job per series and window: the cutoff index is the first held-out step.
  const jobs: Array<{ input: SeriesInput; origin: number; key: string }> = [];
  for (const input of inputs as SeriesInput[]) {
    const n = input.series.length;
    const before = jobs.length;
    for (let w = 0; w < windows; w++) {
      const origin = n - horizon - (windows - 1 - w) * step;
      if (origin >= 1 && (input.series as (number | null)[]).slice(0, origin).some((v) => v !== null)) {
        jobs.push({ input, origin, key: `${input.name}\u0000${w}` });
      }
    }
    if (jobs.length === before) {
      errors.set(input.name, `too short for cross-validation: ${n} values, horizon ${horizon}${windows > 1 ? `, ${windows} windows ${step} apart` : ''}`);
    }
  }
  const truncated = jobs.map((j) => {
    const future = options.covariates?.future ?? Object.keys(j.input.future_covariates ?? {});
    const cut = cutCovariates(j.input, j.origin, horizon, future);
    return { ...j.input, past_covariates: undefined, future_covariates: undefined, ...cut, name: j.key, series: (j.input.series as (number | null)[]).slice(0, j.origin) };
  });
  const forecasts: Array<Map<string, TimeSeriesForecast>> = [];
  for (const [model, forecaster] of forecasters) {
    const r = await runBatch(truncated, forecaster, { ...options, model: undefined, quantiles });
    forecasts.push(new Map(r.forecasts.map((f) => [f.name, f])));
    for (const f of r.failures) {
      const name = f.name.split('\u0000')[0];
      if (!errors.has(name)) {
        errors.set(name, `${model}: ${f.error.message}`);
      }
    }
  }
  const stampsOf = new Map<string, (string | number)[]>();
  const rows: Row[] = [];
  const withRows = new Set<string>();
  for (const { input, origin, key } of jobs) {
    let stamps = stampsOf.get(input.name);
    if (!stamps) {
      stamps = stepTimestamps(input.start_timestamp, normalizeFrequency(input.frequency) ?? 'day', input.series.length, 0, options.timeZone ?? input.time_zone);
      stampsOf.set(input.name, stamps);
    }
    if (forecasts.every((m) => !m.has(key))) {
      continue;
    }
    withRows.add(input.name);
    for (let h = 0; h < horizon && origin + h < input.series.length; h++) {
      const row: Row = { unique_id: input.name, ds: stamps[origin + h], cutoff: stamps[origin - 1], y: (input.series as (number | null)[])[origin + h] };
      forecasters.forEach(([model], k) => {
        const f = forecasts[k].get(key);
        for (const [col, q] of modelColumns(model, layout)) {
          row[col] = f === undefined ? null : paths(q === undefined ? f.mean_forecast : f.quantiles?.[q])[0]?.[h] ?? null;
        }
      });
      rows.push(row);
    }
  }
  for (const [name, message] of errors) {
    if (!withRows.has(name)) {
      rows.push({ unique_id: name, ds: null, cutoff: null, y: null, error: message });
    }
  }
  const head = ['unique_id', 'ds', 'cutoff', 'y', ...forecasters.flatMap(([m]) => modelColumns(m, layout).map(([c]) => c))];
  return rowsToFrame(rows, rows.some((r) => 'error' in r) ? [...head, 'error'] : head);
}
