import type { ForecastModel, ModelForecast, PredictOptions } from '../../runtime/forecast/forecast-model.js';
import { appendTail } from './append-tail.js';

/** One model call's forecast and how many of its steps are used. */
export interface RolloutPiece {
  f: ModelForecast;
  len: number;
}

/**
 * Chronos-Bolt's long-horizon rollout (the official `ChronosBoltPipeline.predict`): the first call
 * forecasts `step` steps; then each series is copied once per quantile level, copy k extended with
 * the level-k path (the model's raw output first, later the reduced level k), and the model runs on
 * all copies — `series × levels` rows per call, chunked by the model's batch size. For every step
 * the `levels × levels` values of a series' copies are pooled and reduced to the model's levels by
 * {@link pooledQuantiles}. A model mean, when given at every step, becomes the copies' average.
 */
export async function rolloutOnQuantiles(
  model: ForecastModel,
  batch: readonly Float32Array[],
  horizon: number,
  step: number,
  options: PredictOptions,
): Promise<RolloutPiece[]> {
  const keep = model.contextLength ?? Number.POSITIVE_INFINITY;
  const first = await model.predict(batch, step, options);
  const levels = first.levels;
  const Q = levels.length;
  const pieces: RolloutPiece[] = [{ f: first, len: step }];
  const extend = (paths: readonly Float32Array[], f: ModelForecast, len: number): Float32Array[] =>
    paths.map((p, r) => {
      const k = r % Q;
      return appendTail(p, f.values[Math.floor(r / Q)].subarray(k * len, (k + 1) * len), keep);
    });
  let paths = extend(
    batch.flatMap((s) => levels.map(() => s)),
    first,
    step,
  );
  const frequencies = options.frequencies?.flatMap((fr) => levels.map(() => fr));
  for (let done = step; done < horizon; ) {
    const len = Math.min(step, horizon - done);
    const f = await model.predict(paths, len, { ...options, frequencies });
    const values = batch.map((_, i) => pooledQuantiles(f.values.slice(i * Q, (i + 1) * Q), levels, len));
    const mean = f.mean === undefined ? undefined : batch.map((_, i) => averageOf(f.mean?.slice(i * Q, (i + 1) * Q) ?? [], len));
    const reduced: ModelForecast = mean === undefined ? { levels, values } : { levels, values, mean };
    pieces.push({ f: reduced, len });
    done += len;
    if (done < horizon) {
      paths = extend(paths, reduced, len);
    }
  }
  return pieces;
}

/**
 * Reduces pooled forecasts to quantiles per step: `samples` holds one level-major [levels × len]
 * forecast per copy; at each step its `samples.length × levels.length` values are sorted and level
 * q is read at rank `q·(n − 1)` with linear interpolation between neighbours (`torch.quantile`'s
 * default). A NaN among a step's values makes that step NaN at every level.
 */
export function pooledQuantiles(samples: readonly Float32Array[], levels: readonly number[], len: number): Float32Array {
  const Q = levels.length;
  const n = samples.length * Q;
  const out = new Float32Array(Q * len);
  const pool = new Float64Array(n);
  for (let h = 0; h < len; h++) {
    let at = 0;
    for (const s of samples) {
      for (let k = 0; k < Q; k++) {
        pool[at++] = s[k * len + h];
      }
    }
    if (pool.some(Number.isNaN)) {
      for (let k = 0; k < Q; k++) {
        out[k * len + h] = Number.NaN;
      }
      continue;
    }
    pool.sort();
    for (let k = 0; k < Q; k++) {
      const raw = levels[k] * (n - 1);
      const rank = Math.abs(raw - Math.round(raw)) < 1e-9 ? Math.round(raw) : raw;
      const lo = Math.floor(rank);
      const hi = Math.min(lo + 1, n - 1);
      out[k * len + h] = pool[lo] + (rank - lo) * (pool[hi] - pool[lo]);
    }
  }
  return out;
}

function averageOf(means: readonly Float32Array[], len: number): Float32Array {
  const out = new Float32Array(len);
  for (let h = 0; h < len; h++) {
    out[h] = means.reduce((a, m) => a + m[h], 0) / means.length;
  }
  return out;
}
