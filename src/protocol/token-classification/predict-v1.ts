import type { CallOptions } from '../../contract/predictor.js';
import type { V1PredictRequest, V1PredictResponse } from '../../contract/v1.js';
import { toV1Response } from '../../runtime/token-classification/kserve-outputs.js';
import type { TokenClassifier } from '../../runtime/token-classification/token-classifier.js';

/** What the token-classification protocol functions need from a model. */
export type TokenIdsModel = Pick<TokenClassifier, 'name' | 'predictTokenIds'>;

/**
 * KServe V1 `:predict` for token classification, on an already-parsed request:
 * `{instances: [text…]}` → `{predictions: [[[class id per token]]…]}` with `[CLS]`/`[SEP]` and
 * each text's own tokens only (no padding garbage, unlike KServe).
 */
export async function predictV1(model: TokenIdsModel, request: V1PredictRequest, options?: CallOptions): Promise<V1PredictResponse> {
  return toV1Response((await model.predictTokenIds(request.instances, options)).classIds);
}
