import type { ForecastTask } from './forecast-model.js';

/** How strongly the hold-out error sets a member's weight: weight ∝ 1 / MAE^power. */
export const HOLDOUT_POWER = 2;

/** Steps held out to weigh the members, or 0 when the series is too short (fewer than 3·horizon values): equal weights then. */
export function holdoutLength(length: number, horizon: number): number {
  return length >= 3 * horizon ? horizon : 0;
}

/** Task `task` without its last `holdout` steps: targets and covariate histories cut, the cut part of each future covariate's history as its future. */
export function headTask(task: ForecastTask, holdout: number): ForecastTask {
  const n = task.targets[0]?.length ?? 0;
  return {
    targets: task.targets.map((y) => y.subarray(0, n - holdout)),
    pastCovariates: task.pastCovariates.map((c) => c.subarray(0, n - holdout)),
    futureCovariates: task.futureCovariates.map((c) => ({ history: c.history.subarray(0, n - holdout), future: c.history.subarray(n - holdout) })),
  };
}

/**
 * Members' weights for one series from their median forecasts of its last `holdout` values
 * (`heads[k]`: member k's median path from the cut series, undefined where it failed):
 * ∝ 1 / MAE^{@link HOLDOUT_POWER}, normalised. Equal weights when any member has no finite hold-out error
 * (a failed hold-out fit, nothing observed) or no hold-out was made.
 */
export function holdoutWeights(y: Float32Array, holdout: number, heads: ReadonlyArray<ArrayLike<number> | undefined>): number[] {
  const equal = heads.map(() => 1 / heads.length);
  if (holdout === 0) {
    return equal;
  }
  const mae = heads.map((path) => {
    let sum = 0;
    let count = 0;
    for (let h = 0; h < holdout && path !== undefined; h++) {
      const actual = y[y.length - holdout + h];
      if (!Number.isNaN(actual)) {
        sum += Math.abs(actual - path[h]);
        count++;
      }
    }
    return count > 0 ? sum / count : Number.NaN;
  });
  if (!mae.every(Number.isFinite) || Math.max(...mae) === 0) {
    return equal;
  }
  // A member that was exact on the hold-out would take all the weight: floor the error at a millionth of the largest.
  const floor = 1e-6 * Math.max(...mae);
  const raw = mae.map((e) => 1 / Math.max(e, floor) ** HOLDOUT_POWER);
  const total = raw.reduce((a, b) => a + b, 0);
  return raw.map((w) => w / total);
}
