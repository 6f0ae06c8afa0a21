import type { CallOptions } from '../../contract/predictor.js';
import type { V2InferRequest, V2InferResponse } from '../../contract/v2.js';
import { textsFromV2Request, toV2Response } from '../../runtime/token-classification/kserve-outputs.js';
import type { TokenIdsModel } from './predict-v1.js';

/**
 * KServe V2 `/infer` for token classification, on an already-parsed request: one BYTES input of
 * shape `[N]` → `output-0` INT64 `[N, 1, T]` (T = longest token count, -1 past each text's tokens),
 * `model_version: null`, `parameters: null`, `id` = the request's or a new UUID.
 * Throws a ValidationError naming the field (`inputs[0].datatype`, `inputs[0].shape`, `outputs[0].name`).
 */
export async function inferV2(model: TokenIdsModel, request: V2InferRequest, options?: CallOptions): Promise<V2InferResponse> {
  const texts = textsFromV2Request(request);
  return toV2Response(model.name, (await model.predictTokenIds(texts, options)).classIds, request.id);
}
