import type { ForecastRollout } from '../../contract/forecast.js';
import { InferkitError } from '../../errors.js';
import { createSession, float32Tensor, type OrtSession, type SessionOptions } from '../ort.js';
import type { ChronosConfig } from './chronos-config.js';
import { planContextChunks } from './context-batch.js';
import type { ForecastModel, ModelForecast, PredictOptions } from './forecast-model.js';

/** Options of {@link createChronosBolt} (and of `loadChronosBolt`). */
export interface ChronosBoltOptions {
  /** Name requests are checked against. @default the model folder's name or hub id */
  name?: string;
  /** Series per ONNX run. @default 64 */
  batchSize?: number;
  /** Sort series by length before chunking to cut left padding. @default true */
  groupByLength?: boolean;
  /** ONNX Runtime session options (threads, execution provider). */
  session?: SessionOptions;
  /**
   * Rollout beyond `prediction_length`: `quantiles` rolls out every quantile path and reduces the
   * pooled forecasts to the model's levels, as the official ChronosBoltPipeline (each step after
   * the first runs `levels` × the series); `median` appends only the 0.5 path (cheaper, narrower
   * intervals later on). A request's `options.rollout` overrides it. @default 'quantiles'
   */
  rollout?: ForecastRollout;
}

/**
 * A Chronos-Bolt ONNX model as a {@link ForecastModel}: `model` is the `.onnx` path or bytes with
 * input `context` float32 [batch, time] (NaN = missing / left padding) and output `quantile_preds`
 * float32 [batch, quantiles, prediction_length]. Series are cut to `context_length`, left-padded
 * with NaN to a multiple of `input_patch_size`, and run `batchSize` at a time.
 */
export async function createChronosBolt(
  model: string | Uint8Array,
  config: ChronosConfig,
  options: ChronosBoltOptions & { name: string },
): Promise<ForecastModel> {
  const session = await createSession(model, options.session);
  if (!session.inputNames.includes('context') || !session.outputNames.includes('quantile_preds')) {
    await session.release();
    throw new InferkitError(
      'model_load_failed',
      `not a Chronos-Bolt ONNX graph: expected input "context" and output "quantile_preds", found inputs [${session.inputNames.join(', ')}] and outputs [${session.outputNames.join(', ')}]`,
    );
  }
  const levels = [...config.quantiles];
  if (levels.some((q, i) => i > 0 && q <= levels[i - 1])) {
    await session.release();
    throw new InferkitError('model_load_failed', `chronos_config.quantiles must be ascending, got [${levels.join(', ')}]`);
  }
  let live: OrtSession | undefined = session;
  const H = config.prediction_length;
  return {
    name: options.name,
    nativeHorizon: H,
    quantiles: levels,
    patchSize: config.input_patch_size,
    contextLength: config.context_length,
    rollout: options.rollout ?? 'quantiles',
    async predict(batch: readonly Float32Array[], horizon: number, opts: PredictOptions = {}): Promise<ModelForecast> {
      if (!live) {
        throw new InferkitError('model_not_ready', `model "${options.name}" was disposed`);
      }
      if (!Number.isInteger(horizon) || horizon < 1 || horizon > H) {
        throw new InferkitError('invalid_request', `horizon ${horizon} is outside 1..${H} (the model's prediction_length)`, { param: 'options.horizon' });
      }
      const values: Float32Array[] = new Array<Float32Array>(batch.length);
      const chunks = planContextChunks(batch, {
        contextLength: config.context_length,
        patchSize: config.input_patch_size,
        batchSize: options.batchSize,
        groupByLength: options.groupByLength,
      });
      const Q = levels.length;
      for (const chunk of chunks) {
        opts.signal?.throwIfAborted();
        let out: Float32Array;
        try {
          const result = await live.run({ context: float32Tensor(chunk.data, [chunk.indices.length, chunk.time]) });
          out = result.quantile_preds.data as Float32Array;
        } catch (cause) {
          throw new InferkitError('inference_failed', `Chronos-Bolt run failed: ${(cause as Error).message}`, { cause });
        }
        if (out.length !== chunk.indices.length * Q * H) {
          throw new InferkitError('inference_failed', `quantile_preds has ${out.length} values, expected [${chunk.indices.length}, ${Q}, ${H}]`);
        }
        chunk.indices.forEach((bi, row) => {
          const v = new Float32Array(Q * horizon);
          for (let q = 0; q < Q; q++) {
            const from = (row * Q + q) * H;
            v.set(out.subarray(from, from + horizon), q * horizon);
          }
          values[bi] = v;
        });
      }
      return { levels, values };
    },
    async dispose(): Promise<void> {
      const s = live;
      live = undefined;
      await s?.release();
    },
  };
}
