import type { V1PredictRequest, V1PredictResponse } from '../contract/v1.js';
import type { CallOptions } from '../contract/predictor.js';
import type { V2InferRequest, V2InferResponse } from '../contract/v2.js';
import { InferkitError, ValidationError } from '../errors.js';
import { textsFromV2Request, toV1Response, toV2Response } from '../runtime/token-classification/kserve-outputs.js';
import { Batcher, type BatcherOptions } from './batcher.js';
import type { TokenClassificationModel } from './model-loader.js';

/** V1/V2 answers of one token-classification model, batched across concurrent requests. */
export interface TokenRunner {
  /** V1 `:predict`. */
  predictV1(request: V1PredictRequest, signal?: AbortSignal): Promise<V1PredictResponse>;
  /** V2 `/infer`. */
  inferV2(request: V2InferRequest, signal?: AbortSignal): Promise<V2InferResponse>;
  /** The batcher (exposed for metrics and tests). */
  readonly batcher: Batcher<string, number[]>;
}

function unwrapV1(response: V1PredictResponse, n: number): number[][] {
  const rows = response.predictions;
  if (rows.length !== n) {
    throw new InferkitError('internal', `model returned ${rows.length} predictions for ${n} texts`);
  }
  return rows.map((entry, i) => {
    const inner = Array.isArray(entry) && entry.length === 1 ? entry[0] : undefined;
    if (!Array.isArray(inner) || !inner.every((v) => typeof v === 'number')) {
      throw new InferkitError('internal', `model prediction ${i} is not [[class id, …]]`);
    }
    return inner as number[];
  });
}

/**
 * Wraps a token-classification model for serving. With batching on, texts of concurrent requests go
 * through one model call (`classIds`, or `predictV1` on the merged texts) and each request's
 * response is rebuilt from its own texts' ids; with batching off the predictor answers directly.
 */
export function createTokenRunner(name: string, model: TokenClassificationModel, options: BatcherOptions): TokenRunner {
  const classIds =
    model.classIds ?? (async (texts: string[], call?: CallOptions) => unwrapV1(await model.predictor.predictV1({ instances: texts }, call), texts.length));
  // The signal aborts once every request of the call is gone: the classifier stops between chunks.
  const batcher = new Batcher<string, number[]>(
    // Each ORT run's texts are answered as it ends (`onClassIds`), not when the whole merged call does.
    (texts, signal, emit) => classIds(texts, { ...(signal ? { signal } : {}), ...(emit ? { onClassIds: emit } : {}) }),
    options,
  );
  return {
    batcher,
    async predictV1(request, signal) {
      if (!batcher.enabled || model.v1Scores === true || model.unbatched === true) {
        const out = await model.predictor.predictV1(request, { signal });
        options.onBatch?.(request.instances.length, 1);
        return out;
      }
      const ids = await batcher.submit(request.instances, signal);
      return toV1Response(ids);
    },
    async inferV2(request, signal) {
      const texts = textsFromV2Request(request);
      if (texts.length === 0) {
        // V1's schema refuses empty instances; an empty V2 tensor is the same client mistake.
        throw new ValidationError([{ path: 'inputs[0].data', message: 'expected at least one text' }], { context: 'V2 inference request' });
      }
      if (!batcher.enabled || model.unbatched === true) {
        const out = await model.predictor.inferV2(request, { signal });
        options.onBatch?.(texts.length, 1);
        return out;
      }
      return toV2Response(name, await batcher.submit(texts, signal), request.id);
    },
  };
}
