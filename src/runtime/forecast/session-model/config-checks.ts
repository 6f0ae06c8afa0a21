import { InferkitError } from '../../../errors.js';

/**
 * A copy of a model's quantile levels, checked ascending (callers binary-search and interpolate them).
 * `field` names them in the `model_load_failed` message (`config.json quantiles`), `param` on the error.
 */
export function ascendingLevels(quantiles: readonly number[], field: string, param?: string): number[] {
  const levels = [...quantiles];
  if (levels.some((q, i) => i > 0 && q <= levels[i - 1])) {
    throw new InferkitError('model_load_failed', `${field} must be ascending, got [${levels.join(', ')}]`, { param });
  }
  return levels;
}

/** `n`, checked a positive integer: a model option such as `batchSize` (`config` error naming `param`). */
export function positiveInteger(n: number, param: string): number {
  if (!Number.isInteger(n) || n < 1) {
    throw new InferkitError('config', `${param} must be a positive integer, got ${n}`, { param });
  }
  return n;
}
