import { randomUUID } from 'node:crypto';
import { forecastQuantileLevels, type ApiError, type ForecastOutput, type ForecastRequest, type ForecastRollout, type ForecastResponse, type TimeSeriesForecast, type TimeSeriesInput } from '../../contract/forecast.js';
import type { Frequency } from '../../contract/enums.js';
import { InferkitError, ValidationError } from '../../errors.js';
import type { ForecastModel } from '../../runtime/forecast/forecast-model.js';
import { isKnownTimeZone } from '../../contract/zone-offset.js';
import { advanceTimestamp } from './advance-timestamp.js';
import { covariatesIgnored, taskOf } from './covariates.js';
import { toApiError } from './error-response.js';
import { interpolateQuantiles, medianPath } from './interpolate-quantiles.js';
import { predictHorizon } from './predict-horizon.js';

/** Start assumed for inputs without `start_timestamp`: the forecast starts `len(series)` intervals after it. */
export const DEFAULT_START_TIMESTAMP = '1970-01-01T00:00:00Z';

/** Options of {@link forecast}. */
export interface ForecastCallOptions {
  /** Longest horizon accepted. @default min(10 × model.nativeHorizon, 10 000) */
  maxHorizon?: number;
  /**
   * Rollout beyond the model's native horizon when the request has no `options.rollout`.
   * @default model.rollout ('quantiles' for Chronos-Bolt), else 'median'
   */
  rollout?: ForecastRollout;
  /** Cancels the model calls. */
  signal?: AbortSignal;
}

const INPUT_FIELDS = new Set(['type', 'name', 'series', 'frequency', 'start_timestamp', 'past_covariates', 'future_covariates']);

/**
 * Answers a parsed ForecastRequest with `model` — the forecast API's semantics, shared by the
 * kernel and the server.
 *
 * - Request-level problems throw: `model` ≠ `model.name` → InferkitError `model_not_found`
 *   (param `model`); horizon > `maxHorizon` → ValidationError (param `options.horizon`).
 * - Every variable of every input is one series of one batch (multivariate inputs are forecast
 *   variable by variable and reassembled time first). A model with `predictTasks` (Chronos-2) gets each
 *   input as one jointly forecast group with its covariates instead, for the whole horizon; for any other
 *   model an input's covariates are not used and its output carries a `covariates_ignored` warning (a
 *   `predictTasks` model reports what it could not use in `taskWarnings`, put on that input's output).
 *   Horizons beyond the native length are rolled out (the request's `options.rollout`, else this call's `rollout`, else the model's: all
 *   quantile paths for Chronos-Bolt, see predictHorizon); quantile levels are read from the sorted
 *   model values and interpolated (clamped beyond the model's outer levels); keys are
 *   `String(level)` of the parsed number (`0.10` in JSON becomes `"0.1"`). `mean_forecast` is the
 *   model's mean, else its raw 0.5 output (see medianPath). `options.level` (percent) adds both ends
 *   of each interval to the levels (forecastQuantileLevels). No `quantiles` and no `level` → no map.
 * - An input with a variable that has no observed value fails alone (`invalid_series`, param
 *   `inputs[i].series`); non-finite model output fails that input (`model_error`). Some failed →
 *   top-level `partial`; all failed → `error` with the first failure's error. Failed outputs have
 *   empty `content`.
 * - `start_timestamp` = input start + len(series) intervals (see advanceTimestamp), on the local calendar
 *   of the input's `time_zone` when it has one (daily Berlin midnights stay midnights across DST; an unknown
 *   zone fails the input, param `inputs[i].time_zone`); without a start, {@link DEFAULT_START_TIMESTAMP}.
 * - `usage` in patches of `model.patchSize` (1 for baselines), over the series forecast:
 *   prompt = Σ ⌊(len + P)/P⌋, completion = Σ ⌊(horizon + P)/P⌋ per variable.
 * - Echoed: `model` as requested, `metadata` and `other_properties`; each input's extra fields are
 *   copied onto its TimeSeriesForecast. `id`s are random UUIDs, `created_at` unix seconds.
 */
export async function forecast(model: ForecastModel, request: ForecastRequest, options: ForecastCallOptions = {}): Promise<ForecastResponse> {
  if (request.model !== model.name) {
    throw new InferkitError('model_not_found', `model "${request.model}" is not served here; this forecaster serves "${model.name}"`, { param: 'model' });
  }
  const { horizon } = request.options;
  const maxHorizon = options.maxHorizon ?? Math.min(10 * model.nativeHorizon, 10_000);
  if (horizon > maxHorizon) {
    throw new ValidationError([{ path: 'options.horizon', message: `horizon ${horizon} exceeds the maximum of ${maxHorizon} steps (model "${model.name}" forecasts ${model.nativeHorizon} natively)` }]);
  }
  const plans = request.inputs.map((input, i) => planInput(input, i, horizon));
  const batch: Float32Array[] = [];
  const frequencies: Frequency[] = [];
  for (const p of plans) {
    if ('error' in p) {
      continue;
    }
    p.first = batch.length;
    batch.push(...p.variables);
    frequencies.push(...p.variables.map(() => p.input.frequency));
  }
  const tasks = plans.flatMap((p) => ('error' in p ? [] : [taskOf(p.input, p.variables)]));
  const taskOfPlan = new Map(plans.flatMap((p, i) => ('error' in p ? [] : [i])).map((planIndex, task) => [planIndex, task]));
  const result =
    batch.length === 0
      ? undefined
      : model.predictTasks !== undefined
        ? await model.predictTasks(tasks, horizon, { frequencies, signal: options.signal })
        : await predictHorizon(model, batch, horizon, { frequencies, signal: options.signal, rollout: request.options.rollout ?? options.rollout });
  const patch = model.patchSize ?? 1;
  let prompt = 0;
  let completion = 0;
  const outputs = plans.map((p, i): ForecastOutput => {
    if ('error' in p) {
      return failed(p.error);
    }
    if (result === undefined) {
      throw new InferkitError('internal', 'no forecast for a planned input');
    }
    const rows = p.variables.map((_, j) => p.first + j);
    if (rows.some((r) => !result.values[r].every(Number.isFinite))) {
      return failed({ code: 'model_error', message: `the model returned non-finite values for inputs[${i}] ("${p.input.name}")`, param: `inputs[${i}]`, type: 'server_error' });
    }
    for (const v of p.variables) {
      prompt += Math.floor((v.length + patch) / patch);
      completion += Math.floor((horizon + patch) / patch);
    }
    const means = rows.map((r) => result.mean?.[r] ?? medianPath(result.levels, result.values[r], horizon));
    const content: TimeSeriesForecast = {
      type: p.input.type,
      name: p.input.name,
      mean_forecast: assemble(p.input, means),
      frequency: p.input.frequency,
      start_timestamp: p.start,
    };
    const levels = forecastQuantileLevels(request.options);
    if (levels !== undefined) {
      const perRow = rows.map((r) => interpolateQuantiles(result.levels, result.values[r], horizon, levels));
      content.quantiles = Object.fromEntries(levels.map((q, k) => [String(q), assemble(p.input, perRow.map((paths) => paths[k]))]));
    }
    for (const [key, value] of Object.entries(p.input)) {
      if (!INPUT_FIELDS.has(key)) {
        content[key] = value;
      }
    }
    const ignored = model.predictTasks === undefined ? covariatesIgnored(p.input, i, model.name) : undefined;
    const warnings = [
      ...(ignored ? [ignored] : []),
      ...(result.taskWarnings ?? []).filter((w) => w.task === taskOfPlan.get(i)).map((w) => ({ code: w.code, message: w.message, param: `inputs[${i}]${w.field ? `.${w.field}` : ''}` })),
    ];
    return { type: 'time_series_forecast', id: randomUUID(), status: 'completed', content: [content], error: null, ...(warnings.length > 0 ? { warnings } : {}) };
  });
  const failures = outputs.filter((o) => o.status === 'error');
  const all = failures.length === outputs.length;
  const first = failures[0]?.error ?? null;
  const response: ForecastResponse = {
    id: randomUUID(),
    created_at: Math.floor(Date.now() / 1000),
    status: failures.length === 0 ? 'completed' : all ? 'error' : 'partial',
    error: all && first ? { ...first, message: outputs.length === 1 ? first.message : `all ${outputs.length} inputs failed; first: ${first.message}` } : null,
    model: request.model,
    outputs,
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
  if (request.metadata !== undefined) {
    response.metadata = request.metadata;
  }
  if (request.other_properties !== undefined) {
    response.other_properties = request.other_properties;
  }
  return response;
}

type InputPlan = { input: TimeSeriesInput; variables: Float32Array[]; start: string; first: number } | { error: ApiError };

/** One Float32Array per variable (null → NaN), the forecast start, or the input's error. */
function planInput(input: TimeSeriesInput, i: number, horizon: number): InputPlan {
  const rows = input.series;
  const variables: Float32Array[] = [];
  // Plain loops: Float32Array.from with a mapper was 4% of the route's event-loop time on one 64-point series.
  if (input.type === 'univariate_time_series') {
    const values = rows as Array<number | null>;
    const v = new Float32Array(values.length);
    for (let t = 0; t < values.length; t++) {
      v[t] = values[t] ?? Number.NaN;
    }
    variables.push(v);
  } else {
    const table = rows as Array<Array<number | null>>;
    for (let j = 0; j < table[0].length; j++) {
      const v = new Float32Array(table.length);
      for (let t = 0; t < table.length; t++) {
        v[t] = table[t][j] ?? Number.NaN;
      }
      variables.push(v);
    }
  }
  const empty = variables.findIndex((v) => v.every(Number.isNaN));
  if (empty >= 0) {
    const which = variables.length > 1 ? `variable ${empty} of inputs[${i}].series` : `inputs[${i}].series`;
    return { error: { code: 'invalid_series', message: `${which} ("${input.name}") has no observed values (all missing); nothing to forecast from`, param: `inputs[${i}].series`, type: 'invalid_request_error' } };
  }
  const given = (input as { time_zone?: unknown }).time_zone;
  const zone = typeof given === 'string' ? given : undefined; // narrowed in one const (tslab's TypeScript 5.0 does not narrow `unknown` through ||)
  if (given !== undefined && (zone === undefined || !isKnownTimeZone(zone))) {
    const message = `inputs[${i}].time_zone ${JSON.stringify(given)} is not an IANA time zone (such as "Europe/Berlin" or "UTC")`;
    return { error: { code: 'invalid_series', message, param: `inputs[${i}].time_zone`, type: 'invalid_request_error' } };
  }
  try {
    const start = advanceTimestamp(input.start_timestamp ?? DEFAULT_START_TIMESTAMP, input.frequency, rows.length, zone);
    advanceTimestamp(start, input.frequency, horizon, zone); // the horizon must stay within years 0000-9999 too
    return { input, variables, start, first: 0 };
  } catch (err) {
    return { error: { ...toApiError(err), param: `inputs[${i}].start_timestamp`, code: 'invalid_series' } };
  }
}

/**
 * Univariate: the path; multivariate: time-first rows of the variables' paths. Values are written as the
 * shortest decimal that reads back as the same float32 (models compute in float32), so JSON carries
 * `1.1`, not `1.100000023841858`.
 */
function assemble(input: TimeSeriesInput, paths: ArrayLike<number>[]): number[] | number[][] {
  if (input.type === 'univariate_time_series') {
    return Array.from(paths[0], shortFloat32);
  }
  return Array.from({ length: paths[0].length }, (_, t) => paths.map((p) => shortFloat32(p[t])));
}

/** Exact powers of ten (10^22 is the largest a double holds exactly). */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * A short decimal (7–9 significant digits, the fewest that work) whose float32 is the float32 of `x`,
 * so JSON carries `1.1`, not `1.100000023841858`. Runs per output value, so it rounds with exact powers
 * of ten (the quotient of two exact doubles is the double nearest the decimal) instead of strings;
 * magnitudes beyond 10^±22 take the string path.
 */
export function shortFloat32(x: number): number {
  if (!Number.isFinite(x)) {
    return x;
  }
  const f = Math.fround(x);
  if (f === 0) {
    return 0;
  }
  const e = Math.floor(Math.log10(Math.abs(f)));
  for (let digits = 7; digits <= 9; digits++) {
    const k = digits - 1 - e;
    if (k > 22 || k < -22) {
      return shortViaString(f);
    }
    const y = k >= 0 ? Math.round(f * POW10[k]) / POW10[k] : Math.round(f / POW10[-k]) * POW10[-k];
    if (Math.fround(y) === f) {
      return y;
    }
  }
  return shortViaString(f);
}

function shortViaString(f: number): number {
  for (let digits = 7; digits < 9; digits++) {
    const y = Number(f.toPrecision(digits));
    if (Math.fround(y) === f) {
      return y;
    }
  }
  return Number(f.toPrecision(9));
}

function failed(error: ApiError): ForecastOutput {
  return { type: 'time_series_forecast', id: randomUUID(), status: 'error', content: [], error };
}
