import { InferkitError } from '../../../errors.js';
import { baselineLevels, baselineModel, BASELINE_LEVELS, type BaselineOptions, type PointAndSpread } from '../baseline-model.js';
import { fillMissing } from '../fill-missing.js';
import type { ForecastModel, ForecastTask, ModelForecast, PredictOptions } from '../forecast-model.js';
import { seasonFor } from '../seasonality.js';
import { calibrateArimaSpread } from './arima-calibration.js';
import { arimaForecast } from './arima-forecast.js';
import { selectArima, type SelectArimaOptions } from './select-arima.js';
import { isConstant } from './unit-root.js';

/** Options of {@link autoArima}. */
export interface AutoArimaOptions extends BaselineOptions {
  /** Most recent values fitted (older ones are dropped). @default max(10 seasons, 1000) */
  maxContext?: number;
  /** Search by conditional sum of squares, refit exactly (R's `approximation`). @default R's rule: more than 150 values or season above 12 */
  approximation?: boolean;
  /**
   * Widen the spread where the chosen model's own errors at 3 hold-out origins say its ψ-weight
   * intervals are too narrow for 80% coverage ({@link calibrateArimaSpread}: the model refitted, not
   * re-searched; factor in [1, 2]). `false` gives R's `forecast(auto.arima(y))` intervals. @default true
   */
  calibrate?: boolean;
}

/** A forecast by {@link autoArimaForecast}: point, standard deviation per step and the model used. */
export interface AutoArimaForecast extends PointAndSpread {
  /** The model as R prints it (`ARIMA(0,1,1)(0,1,1)[12]`), or the fallback's name (`naive`, `seasonal-naive`). */
  model: string;
  /** Why no ARIMA was used when the series had enough distinct values for one (the search failed, or its forecast was not finite): the fallback is seasonal naive when the series holds two seasons, else naive; served, it is reported as a `model_fallback` warning. */
  fallback?: string;
  /** The factor the hold-out calibration multiplied the model's standard deviations by (1 = left as the model gives them); absent when not calibrated. */
  calibration?: number;
}

/** Regressors of one series for {@link autoArimaForecast}: columns over the history and over the forecast horizon. */
export interface ArimaRegressors {
  /** One column per regressor, each as long as the series. */
  past: readonly ArrayLike<number>[];
  /** The same columns over the horizon, each `horizon` long. */
  future: readonly ArrayLike<number>[];
}

/**
 * AutoARIMA as a {@link ForecastModel} (default name `auto-arima`), R's `auto.arima` per series
 * ({@link selectArima}): seasonal ARIMA fitted by exact Kalman likelihood, d by KPSS, D by seasonal
 * strength, stepwise AICc search, drift/mean; point forecast as mean and median, Gaussian intervals
 * from the model's ψ weights, widened (at most 2×) where the chosen model's errors at three hold-out
 * origins say they are too narrow (`calibrate`, on by default). Season from the frequency or
 * `season`, used when the series holds two full seasons. Missing values: leading dropped, inner interpolated, trailing carried forward.
 * A constant series forecasts itself with no spread; fewer than 3 values, or a series no ARIMA
 * fits (an exactly repeating seasonal profile: every seasonally differenced value is 0), get the
 * seasonal naive forecast (two seasons held) or the naive one instead of failing the batch.
 */
export function autoArima(options: AutoArimaOptions = {}): ForecastModel {
  const cap = options.maxContext;
  if (cap !== undefined && !(cap === Number.POSITIVE_INFINITY || (Number.isInteger(cap) && cap >= 5))) {
    throw new InferkitError('config', `autoArima option maxContext must be an integer ≥ 5 or Infinity, got ${String(cap)}`, { param: 'maxContext' });
  }
  const base = baselineModel('auto-arima', (y, horizon, m) => autoArimaForecast(y, horizon, { ...options, season: m }), options, 2);
  return {
    ...base,
    predictTasks: (tasks, horizon, opts) => Promise.resolve(predictTasks(tasks, horizon, options, opts)),
  };
}

/**
 * Forecasts with covariates (the protocol's `future_covariates`): each task's targets are fitted as
 * regressions with ARIMA errors on its known-future covariates (history → `regressors.past`, horizon
 * values → `regressors.future`; missing values interpolated, a column with none observed dropped).
 * Past-only covariates cannot be used by ARIMA (their future is unknown) and are left out.
 */
function predictTasks(tasks: readonly ForecastTask[], horizon: number, options: AutoArimaOptions, opts: PredictOptions = {}): ModelForecast {
  const values: Float32Array[] = [];
  const mean: Float32Array[] = [];
  const taskWarnings: NonNullable<ModelForecast['taskWarnings']> = [];
  let row = 0;
  for (const [ti, task] of tasks.entries()) {
    if (task.pastCovariates.length > 0) {
      taskWarnings.push({ task: ti, code: 'covariates_ignored', field: 'past_covariates', message: 'auto-arima uses covariates with known future values (future_covariates) only; the past-only ones were not used' });
    }
    const usable = task.futureCovariates.filter((c) => c.history.some((v) => !Number.isNaN(v)));
    for (const y of task.targets) {
      opts.signal?.throwIfAborted();
      const season = seasonFor(opts.frequencies?.[row++], y.length, options.season, 2);
      const regressors: ArimaRegressors | undefined =
        usable.length === 0 ? undefined : { past: usable.map((c) => gapFree(c.history)), future: usable.map((c) => gapFree(c.future, c.history)) };
      const f = autoArimaForecast(y, horizon, { ...options, season, regressors });
      if (f.fallback !== undefined) {
        taskWarnings.push({ task: ti, code: 'model_fallback', message: `auto-arima fell back to the ${f.model} forecast: ${f.fallback}` });
      }
      values.push(baselineLevels(f, horizon));
      mean.push(Float32Array.from(f.point));
    }
  }
  return { levels: BASELINE_LEVELS, values, mean, ...(taskWarnings.length > 0 ? { taskWarnings } : {}) };
}

/** x with NaNs filled (inner ones interpolated, leading ones by the first value, trailing ones carried); `before` supplies the last value for a leading gap in a future column. */
function gapFree(x: Float32Array, before?: Float32Array): Float64Array {
  const joined = before === undefined ? Array.from(x) : [...Array.from(before), ...Array.from(x)];
  const { values, first } = fillMissing(joined);
  const full = new Float64Array(joined.length);
  full.fill(values.length > 0 ? values[0] : 0, 0, Math.max(0, first));
  full.set(values, Math.max(0, first));
  return full.subarray(full.length - x.length);
}

/**
 * One series' AutoARIMA forecast, with optional regressors (regression with ARIMA errors, the
 * `xreg` of R's `auto.arima`): `regressors.past` columns cover the series, `regressors.future` the
 * horizon. This is the model-level entry for covariates; the forecast wire has none yet.
 */
export function autoArimaForecast(y: ArrayLike<number>, horizon: number, options: AutoArimaOptions & { regressors?: ArimaRegressors } = {}): AutoArimaForecast {
  const m = options.season ?? 1;
  const cap = options.maxContext ?? Math.max(10 * m, 1000);
  const start = y.length > cap ? y.length - cap : 0;
  const { values, first } = fillMissing(Array.prototype.slice.call(y, start) as number[]);
  if (values.length < 3 || isConstant(values)) {
    return naive(values, horizon);
  }
  const past = options.regressors?.past.map((c) => Float64Array.from(Array.prototype.slice.call(c, start + first) as number[]));
  const select: SelectArimaOptions = { season: m, approximation: options.approximation, xreg: past };
  try {
    const { fit, name } = selectArima(values, select);
    const f = arimaForecast(fit, horizon, options.regressors?.future ?? []);
    if (f.point.every(Number.isFinite) && f.sd.every(Number.isFinite)) {
      if (options.calibrate === false) {
        return { ...f, model: name };
      }
      const observed = Float32Array.from(Array.prototype.slice.call(y, start + first) as number[]);
      const { sd, factor } = calibrateArimaSpread(fit, f, observed, horizon);
      return { point: f.point, sd, model: name, calibration: factor };
    }
    return { ...naive(values, horizon, m), fallback: 'the ARIMA forecast was not finite' };
  } catch (e) {
    if (!(e instanceof InferkitError) || e.param === 'future_covariates') {
      throw e;
    }
    return { ...naive(values, horizon, m), fallback: e.message };
  }
}

/**
 * The fallback: seasonal naive when the series holds two seasons of period m ≥ 2 (the last season
 * repeated, spread σ·√(⌊h/m⌋ + 1) with σ the RMS lag-m difference), else naive (the last value,
 * σ√h with σ the RMS one-step difference; 0 for a constant series).
 */
function naive(x: Float64Array, horizon: number, season = 1): AutoArimaForecast {
  const m = season >= 2 && x.length >= 2 * season ? season : 1;
  const n = x.length;
  let s = 0;
  for (let t = m; t < n; t++) {
    s += (x[t] - x[t - m]) ** 2;
  }
  const sigma = n > m ? Math.sqrt(s / (n - m)) : 0;
  return {
    point: Float64Array.from({ length: horizon }, (_, h) => (n > 0 ? x[n - m + (h % m)] : Number.NaN)),
    sd: Float64Array.from({ length: horizon }, (_, h) => sigma * Math.sqrt(Math.floor(h / m) + 1)),
    model: m > 1 ? 'seasonal-naive' : 'naive',
  };
}
