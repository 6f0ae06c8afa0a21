import type { V2ModelMetadata } from '../../contract/v2.js';
import { tokenClassMetadata } from '../../runtime/token-classification/kserve-outputs.js';
import type { TokenClassifier } from '../../runtime/token-classification/token-classifier.js';

/**
 * V2 `GET /v2/models/{name}` for a token classifier: input `text` BYTES `[-1]`, output
 * `output-0` INT64 `[-1, 1, -1]`, with labels, max length and lower-casing in `parameters`.
 */
export function tokenClassificationMetadata(model: Pick<TokenClassifier, 'name' | 'info'>): V2ModelMetadata {
  return tokenClassMetadata(model.name, { labels: model.info.labels, maxLength: model.info.maxLength, lowercase: model.info.lowercase });
}
