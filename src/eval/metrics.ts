/**
 * Mean absolute scaled error: mean |actual − forecast| over present actuals, divided by the mean
 * absolute lag-`season` difference of `train` (pairs with both values present). NaN when the
 * scale is 0 or undefined, or no actual is present.
 */
export function mase(train: ArrayLike<number>, actual: ArrayLike<number>, forecast: ArrayLike<number>, season: number): number {
  let scale = 0;
  let n = 0;
  for (let t = season; t < train.length; t++) {
    const d = Math.abs(train[t] - train[t - season]);
    if (!Number.isNaN(d)) {
      scale += d;
      n++;
    }
  }
  let err = 0;
  let m = 0;
  for (let h = 0; h < actual.length; h++) {
    if (Number.isNaN(actual[h])) {
      continue;
    }
    err += Math.abs(actual[h] - forecast[h]);
    m++;
  }
  if (n === 0 || m === 0 || scale === 0) {
    return Number.NaN;
  }
  return err / m / (scale / n);
}

/**
 * Weighted quantile loss: mean over levels q of `2·Σ_h ρ_q(y_h − ŷ_{q,h}) / Σ_h |y_h|`, with
 * pinball loss ρ_q(e) = max(q·e, (q−1)·e); missing actuals are skipped. NaN when Σ|y| is 0.
 */
export function weightedQuantileLoss(actual: ArrayLike<number>, paths: readonly ArrayLike<number>[], levels: readonly number[]): number {
  let denom = 0;
  for (let h = 0; h < actual.length; h++) {
    if (!Number.isNaN(actual[h])) {
      denom += Math.abs(actual[h]);
    }
  }
  if (denom === 0 || levels.length === 0) {
    return Number.NaN;
  }
  let total = 0;
  levels.forEach((q, k) => {
    let loss = 0;
    for (let h = 0; h < actual.length; h++) {
      const e = actual[h] - paths[k][h];
      if (!Number.isNaN(e)) {
        loss += Math.max(q * e, (q - 1) * e);
      }
    }
    total += (2 * loss) / denom;
  });
  return total / levels.length;
}
