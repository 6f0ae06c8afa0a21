import { InferkitError } from '../../../errors.js';
import type { PointAndSpread } from '../baseline-model.js';
import { calibratedRule, type CalibrationOptions } from '../calibrated-rule.js';
import { fitArima, type ArimaFit } from './arima-fit.js';
import { arimaForecast, type ArimaForecast } from './arima-forecast.js';

/**
 * Widens a fitted ARIMA model's forecast spread where the model's own errors at hold-out origins
 * say it is too narrow — the same bounded rule as Theta's and MSTL's ({@link calibratedRule}:
 * origins n − j·horizon for j = 1…3, per origin the factor q₈₀(|z|)/z₀.₉ that would have put 80% of
 * the standardised errors inside, the median over origins, clamped to [1, 2]). Each hold-out is the
 * chosen model (same orders, constant and regressors) refitted by exact likelihood on the history
 * before the origin, warm-started from `fit` — not a new stepwise search, so it costs three fits,
 * not three searches. `observed` is the fitted series with NaN where a value was interpolated
 * (those steps are not scored). Returns the calibrated standard deviations and the factor (1 when
 * nothing was widened).
 *
 * Why: ψ-weight intervals treat the parameters, the orders and d as known; on the classic series
 * the 80% intervals of R's `forecast(auto.arima(y))`, which these equal, cover 0.64–0.74 per
 * frequency group in a rolling-origin backtest.
 */
export function calibrateArimaSpread(fit: ArimaFit, forecast: ArimaForecast, observed: Float32Array, horizon: number, options: CalibrationOptions = {}): { sd: Float64Array; factor: number } {
  const n = fit.y.length;
  const noQuantiles = new Float64Array(horizon).fill(Number.NaN);
  const rule = (part: Float32Array, h: number): PointAndSpread => {
    if (part.length === n) {
      return forecast;
    }
    try {
      const L = part.length;
      const refit = fitArima(fit.y.subarray(0, L), fit.order, { xreg: fit.xreg.map((c) => c.subarray(0, L)), start: fit, maxIterations: 10 });
      return arimaForecast(refit, h, fit.xreg.map((c) => c.subarray(L, L + h)));
    } catch (e) {
      if (e instanceof InferkitError) {
        // Too short for the model before this origin: no scores from it.
        return { point: noQuantiles.subarray(0, h), sd: noQuantiles.subarray(0, h) };
      }
      throw e;
    }
  };
  const out = calibratedRule(rule, options)(observed, horizon, fit.order.m);
  const base = forecast.sd.find((v) => v > 0);
  const factor = base === undefined ? 1 : (out.sd[forecast.sd.indexOf(base)] ?? base) / base;
  return { sd: out.sd, factor };
}
