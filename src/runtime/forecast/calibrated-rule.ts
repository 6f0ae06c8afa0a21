import type { BaselineRule, PointAndSpread } from './baseline-model.js';
import { normalQuantile } from './seasonality.js';

/** Options of {@link calibratedRule}. */
export interface CalibrationOptions {
  /** Hold-out origins inside the history (`n - j·horizon`, j = 1…origins). @default 3 */
  origins?: number;
  /** Fewest standardised errors needed to rescale; fewer leave the spread as the rule gives it. @default 8 */
  minScores?: number;
  /** Interval the scale targets (its central coverage). @default 0.8 */
  coverage?: number;
  /** Largest widening factor. @default 2 */
  maxFactor?: number;
}

/**
 * Wraps a rule so that its spread is calibrated on the series' own recent past (split-conformal
 * style): the rule is refitted on the history cut at `origins` hold-out origins, its errors on
 * the next `horizon` known values are standardised by its own sd (z = (y − point) / sd), and the
 * spread of the final forecast is multiplied by c = q_coverage(|z|) / z_{(1+coverage)/2} — the
 * factor that would have made exactly `coverage` of those errors fall inside the interval — taken
 * per origin and then the median over origins (one window that straddles a level shift cannot
 * blow the interval up), clamped to [1, `maxFactor`]: never narrower than the model's own spread
 * (a few calm recent windows are no evidence that it is too wide), never more than twice as wide.
 * Simulated quantiles are scaled around the point forecast by the same c. Costs `origins` extra
 * fits per series.
 */
export function calibratedRule(rule: BaselineRule, options: CalibrationOptions = {}): BaselineRule {
  const origins = options.origins ?? 3;
  const minScores = options.minScores ?? 8;
  const coverage = options.coverage ?? 0.8;
  const zTarget = normalQuantile((1 + coverage) / 2);
  const maxFactor = options.maxFactor ?? 2;
  return (y, horizon, m, periods) => {
    const out = rule(y, horizon, m, periods);
    let count = 0;
    const factors: number[] = [];
    for (let j = 1; j <= origins; j++) {
      const scores: number[] = [];
      const origin = y.length - j * horizon;
      if (origin < Math.max(2 * m, 4)) {
        break;
      }
      const past = rule(y.subarray(0, origin), horizon, m, periods);
      for (let h = 0; h < horizon; h++) {
        const actual = y[origin + h];
        if (!Number.isNaN(actual) && past.sd[h] > 0 && Number.isFinite(past.point[h])) {
          scores.push(Math.abs(actual - past.point[h]) / past.sd[h]);
        }
      }
      if (scores.length > 0) {
        factors.push(quantile(scores, coverage) / zTarget);
        count += scores.length;
      }
    }
    if (count < minScores) {
      return out;
    }
    return scale(out, Math.min(maxFactor, Math.max(1, quantile(factors, 0.5))), horizon);
  };
}

/** The p-quantile of xs (linear interpolation between order statistics); sorts xs. */
function quantile(xs: number[], p: number): number {
  xs.sort((a, b) => a - b);
  const pos = p * (xs.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, xs.length - 1);
  return xs[lo] + (pos - lo) * (xs[hi] - xs[lo]);
}

function scale(f: PointAndSpread, c: number, horizon: number): PointAndSpread {
  const sd = f.sd.map((v) => v * c);
  if (f.quantiles === undefined) {
    return { point: f.point, sd };
  }
  const quantiles = f.quantiles.map((v, i) => f.point[i % horizon] + c * (v - f.point[i % horizon]));
  return { point: f.point, sd, quantiles };
}
