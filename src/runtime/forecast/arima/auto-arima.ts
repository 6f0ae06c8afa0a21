import { InferkitError } from '../../../errors.js';
import { baselineModel, type BaselineOptions, type PointAndSpread } from '../baseline-model.js';
import { fillMissing } from '../fill-missing.js';
import type { ForecastModel } from '../forecast-model.js';
import { arimaForecast } from './arima-forecast.js';
import { selectArima, type SelectArimaOptions } from './select-arima.js';
import { isConstant } from './unit-root.js';

/** Options of {@link autoArima}. */
export interface AutoArimaOptions extends BaselineOptions {
  /** Most recent values fitted (older ones are dropped). @default max(10 seasons, 1000) */
  maxContext?: number;
  /** Search by conditional sum of squares, refit exactly (R's `approximation`). @default R's rule: more than 150 values or season above 12 */
  approximation?: boolean;
}

/** A forecast by {@link autoArimaForecast}: point, standard deviation per step and the model used. */
export interface AutoArimaForecast extends PointAndSpread {
  /** The model as R prints it (`ARIMA(0,1,1)(0,1,1)[12]`), or `naive` for the fallback. */
  model: string;
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
 * from the model's ψ weights. Season from the frequency or `season`, used when the series holds two
 * full seasons. Missing values: leading dropped, inner interpolated, trailing carried forward.
 * A constant series forecasts itself with no spread; fewer than 3 values, or a series no ARIMA
 * fits, get the naive forecast (last value, random-walk spread) instead of failing the batch.
 */
export function autoArima(options: AutoArimaOptions = {}): ForecastModel {
  const cap = options.maxContext;
  if (cap !== undefined && !(cap === Number.POSITIVE_INFINITY || (Number.isInteger(cap) && cap >= 5))) {
    throw new InferkitError('config', `autoArima option maxContext must be an integer ≥ 5 or Infinity, got ${String(cap)}`, { param: 'maxContext' });
  }
  return baselineModel('auto-arima', (y, horizon, m) => autoArimaForecast(y, horizon, { ...options, season: m }), options, 2);
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
      return { ...f, model: name };
    }
  } catch (e) {
    if (!(e instanceof InferkitError) || e.param === 'future_covariates') {
      throw e;
    }
  }
  return naive(values, horizon);
}

/** Last value, σ√h spread with σ the RMS one-step difference (0 for a constant series). */
function naive(x: Float64Array, horizon: number): AutoArimaForecast {
  const last = x.length > 0 ? x[x.length - 1] : Number.NaN;
  let s = 0;
  for (let t = 1; t < x.length; t++) {
    s += (x[t] - x[t - 1]) ** 2;
  }
  const sigma = x.length > 1 ? Math.sqrt(s / (x.length - 1)) : 0;
  return {
    point: new Float64Array(horizon).fill(last),
    sd: Float64Array.from({ length: horizon }, (_, h) => sigma * Math.sqrt(h + 1)),
    model: 'naive',
  };
}
