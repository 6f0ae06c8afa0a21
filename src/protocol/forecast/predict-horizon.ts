import type { ForecastModel, ModelForecast, PredictOptions } from '../../runtime/forecast/forecast-model.js';
import { medianPath } from './interpolate-quantiles.js';

/**
 * Forecasts `horizon` steps for every series, beyond the model's native length by rolling out on
 * the median: predict `nativeHorizon` steps, append the median path to each series, predict
 * again, and concatenate. The quantiles of later steps are the model's, given the median past
 * (so their spread does not grow with the uncertainty of earlier steps). `mean` is kept only when
 * the model gave one at every step.
 */
export async function predictHorizon(
  model: ForecastModel,
  batch: readonly Float32Array[],
  horizon: number,
  options: PredictOptions = {},
): Promise<ModelForecast> {
  const step = Math.max(1, Math.min(horizon, model.nativeHorizon));
  if (step >= horizon) {
    return model.predict(batch, horizon, options);
  }
  const keep = model.contextLength ?? Number.POSITIVE_INFINITY;
  let context = batch.map((s) => s);
  const pieces: Array<{ f: ModelForecast; len: number }> = [];
  for (let done = 0; done < horizon; ) {
    const len = Math.min(step, horizon - done);
    const f = await model.predict(context, len, options);
    pieces.push({ f, len });
    done += len;
    if (done < horizon) {
      context = context.map((s, i) => appendTail(s, medianPath(f.levels, f.values[i], len), keep));
    }
  }
  const levels = pieces[0].f.levels;
  const Q = levels.length;
  const values = batch.map((_, i) => {
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
  const mean = hasMean ? batch.map((_, i) => concat(pieces.map(({ f }) => (f.mean as Float32Array[])[i]))) : undefined;
  return mean === undefined ? { levels, values } : { levels, values, mean };
}

/** `s` followed by `tail`, keeping at most the last `keep` values. */
function appendTail(s: Float32Array, tail: Float32Array, keep: number): Float32Array {
  const total = s.length + tail.length;
  const from = Math.max(0, total - keep);
  const out = new Float32Array(total - from);
  if (from < s.length) {
    out.set(s.subarray(from), 0);
  }
  out.set(tail.subarray(Math.max(0, from - s.length)), Math.max(0, s.length - from));
  return out;
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
