import type { ForecastRollout } from '../../contract/forecast.js';
import type { ForecastModel, ModelForecast, PredictOptions } from '../../runtime/forecast/forecast-model.js';
import { appendTail } from './append-tail.js';
import { medianPath } from './interpolate-quantiles.js';
import { rolloutOnQuantiles, type RolloutPiece } from './rollout-on-quantiles.js';

/** Options of {@link predictHorizon}. */
export interface PredictHorizonOptions extends PredictOptions {
  /** Rollout beyond the native horizon. @default model.rollout, else 'median' */
  rollout?: ForecastRollout;
}

/**
 * Forecasts `horizon` steps for every series. Beyond the model's native length it rolls out:
 *
 * - `quantiles` (Chronos-Bolt's default, as its official pipeline): every quantile path extends
 *   its own copy of the context, and each later step's `levels × levels` values are reduced back to
 *   the model's levels (see rolloutOnQuantiles). Intervals widen with the uncertainty of earlier
 *   steps; each step after the first costs `levels` times the series.
 * - `median`: the point path (see medianPath) is appended to each series and the model is called
 *   again; later steps' quantiles are conditional on that one past, so their spread does not grow.
 *
 * `mean` is kept only when the model gave one at every step.
 */
export async function predictHorizon(
  model: ForecastModel,
  batch: readonly Float32Array[],
  horizon: number,
  options: PredictHorizonOptions = {},
): Promise<ModelForecast> {
  const { rollout, ...predictOptions } = options;
  const step = Math.max(1, Math.min(horizon, model.nativeHorizon));
  if (step >= horizon) {
    return model.predict(batch, horizon, predictOptions);
  }
  const mode = rollout ?? model.rollout ?? 'median';
  const pieces =
    mode === 'quantiles'
      ? await rolloutOnQuantiles(model, batch, horizon, step, predictOptions)
      : await rolloutOnMedian(model, batch, horizon, step, predictOptions);
  return joinPieces(batch.length, horizon, pieces);
}

async function rolloutOnMedian(
  model: ForecastModel,
  batch: readonly Float32Array[],
  horizon: number,
  step: number,
  options: PredictOptions,
): Promise<RolloutPiece[]> {
  const keep = model.contextLength ?? Number.POSITIVE_INFINITY;
  let context = batch.map((s) => s);
  const pieces: RolloutPiece[] = [];
  for (let done = 0; done < horizon; ) {
    const len = Math.min(step, horizon - done);
    const f = await model.predict(context, len, options);
    pieces.push({ f, len });
    done += len;
    if (done < horizon) {
      context = context.map((s, i) => appendTail(s, medianPath(f.levels, f.values[i], len), keep));
    }
  }
  return pieces;
}

/** Concatenates the pieces' steps into one [levels × horizon] forecast per series. */
function joinPieces(size: number, horizon: number, pieces: readonly RolloutPiece[]): ModelForecast {
  const levels = pieces[0].f.levels;
  const Q = levels.length;
  const values = Array.from({ length: size }, (_, i) => {
    const v = new Float32Array(Q * horizon);
    let at = 0;
    for (const { f, len } of pieces) {
      for (let q = 0; q < Q; q++) {
        v.set(f.values[i].subarray(q * len, (q + 1) * len), q * horizon + at);
      }
      at += len;
    }
    return v;
  });
  const hasMean = pieces.every(({ f }) => f.mean !== undefined);
  const mean = hasMean ? Array.from({ length: size }, (_, i) => concat(pieces.map(({ f }) => (f.mean as Float32Array[])[i]))) : undefined;
  return mean === undefined ? { levels, values } : { levels, values, mean };
}

function concat(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
