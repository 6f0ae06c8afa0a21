import type { V1PredictRequest, V1PredictResponse } from '../contract/v1.js';
import type { CallOptions } from '../contract/predictor.js';
import type { V2InferRequest, V2InferResponse } from '../contract/v2.js';
import { InferkitError, ValidationError } from '../errors.js';
import { textsFromV2Request, toV1Response, toV2Response } from '../runtime/token-classification/kserve-outputs.js';
import { RunQueue } from './run-queue.js';
import type { TokenClassificationModel } from './model-loader.js';

/** V1/V2 answers of one token-classification model, batched across concurrent requests. */
export interface TokenRunner {
  /** V1 `:predict`. */
  predictV1(request: V1PredictRequest, signal?: AbortSignal): Promise<V1PredictResponse>;
  /** V2 `/infer`. */
  inferV2(request: V2InferRequest, signal?: AbortSignal): Promise<V2InferResponse>;
  /** The run queue (exposed for tests). */
  readonly queue: RunQueue<number[], number[]> | RunQueue<string, number[]>;
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

/** How a {@link createTokenRunner} queues texts. */
export interface TokenRunnerOptions {
  /** Most texts per run when the model does not say (`runItems`); `≤ 1` answers each request alone. @default 32 */
  maxBatchSize?: number;
  /** `false`: every request goes to the predictor alone (no queue). @default true */
  enabled?: boolean;
  /** Runs at once: the model's session replicas. @default 1 */
  slots?: number;
  /** Called after each run with its texts and the requests they came from. */
  onBatch?: (items: number, requests: number) => void;
}

/**
 * Wraps a token-classification model for serving. With batching on, the texts of all requests go into
 * one {@link RunQueue}: each free replica takes the oldest text and the queued texts closest to it in
 * token length (`tokenIds` + `runClassIds`; a model without them runs `classIds` on texts queued by
 * characters), and each request's response is rebuilt from its own texts' ids. With batching off the
 * predictor answers directly.
 */
export function createTokenRunner(name: string, model: TokenClassificationModel, options: TokenRunnerOptions = {}): TokenRunner {
  const classIds =
    model.classIds ?? (async (texts: string[], call?: CallOptions) => unwrapV1(await model.predictor.predictV1({ instances: texts }, call), texts.length));
  const runSize = Math.min(model.runItems ?? Infinity, options.maxBatchSize ?? 32);
  const enabled = options.enabled !== false && (options.maxBatchSize ?? 32) > 1;
  const common = { runSize, slots: options.slots ?? 1, onRun: options.onBatch };
  const { tokenIds, runClassIds } = model;
  const byTokens = tokenIds && runClassIds ? new RunQueue<number[], number[]>(runClassIds, { ...common, lengthOf: (ids) => ids.length }) : undefined;
  const byChars = byTokens ? undefined : new RunQueue<string, number[]>(classIds, { ...common, lengthOf: (text) => text.length });
  const submit = async (texts: string[], signal?: AbortSignal): Promise<number[][]> => {
    if (byTokens === undefined || tokenIds === undefined) {
      return (byChars as RunQueue<string, number[]>).submit(texts, signal);
    }
    const ids = await tokenIds(texts);
    // Without special tokens an empty text has no tokens: its answer is empty, the model never sees it.
    const live = ids.flatMap((s, i) => (s.length > 0 ? [i] : []));
    const got = await byTokens.submit(live.length === ids.length ? ids : live.map((i) => ids[i]), signal);
    if (live.length === ids.length) {
      return got;
    }
    const out = ids.map((): number[] => []);
    live.forEach((i, k) => (out[i] = got[k]));
    return out;
  };
  return {
    queue: byTokens ?? (byChars as RunQueue<string, number[]>),
    async predictV1(request, signal) {
      if (!enabled || model.v1Scores === true || model.unbatched === true) {
        const out = await model.predictor.predictV1(request, { signal });
        options.onBatch?.(request.instances.length, 1);
        return out;
      }
      return toV1Response(await submit(request.instances, signal));
    },
    async inferV2(request, signal) {
      const texts = textsFromV2Request(request);
      if (texts.length === 0) {
        // V1's schema refuses empty instances; an empty V2 tensor is the same client mistake.
        throw new ValidationError([{ path: 'inputs[0].data', message: 'expected at least one text' }], { context: 'V2 inference request' });
      }
      if (!enabled || model.unbatched === true) {
        const out = await model.predictor.inferV2(request, { signal });
        options.onBatch?.(texts.length, 1);
        return out;
      }
      return toV2Response(name, await submit(texts, signal), request.id);
    },
  };
}
