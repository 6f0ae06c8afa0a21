/**
 * Every intended difference between inferkit's server and KServe's Hugging Face server on the
 * recorded exchanges (`../shared/conformance/kserve-hf/exchanges.jsonl`), by exchange id.
 * `inferkit` is the status inferkit answers; `body` marks a difference in the body only (same
 * status). The same table is in `src/server/README.md` ("Differences from KServe").
 */
export interface IntendedDifference {
  kserve: number;
  inferkit: number;
  body?: true;
  reason: string;
}

const CLIENT_MISTAKE = 'a client mistake is a 400 naming the field, not a 500 from a Python exception';
const SCHEMA_400 = 'schema errors are 400 with `{"error": "<field>: <problem>"}` (KServe: FastAPI 422 with `{"detail": [...]}`)';
const STRICT_V2 = 'inferkit checks the tensor (one BYTES input whose shape matches its data) instead of reading what it can';
const CONTENT_TYPE = 'every body is read as JSON whatever its Content-Type (curl sends form types by default)';

export const INTENDED_DIFFERENCES: Readonly<Record<string, IntendedDifference>> = {
  'v1-nospec-empty': { kserve: 500, inferkit: 200, reason: 'an empty text without special tokens has no tokens: inferkit answers `[[]]` for it (KServe answers 500)' },
  'v2-probs': { kserve: 200, inferkit: 200, body: true, reason: 'V2 answers INT64 class ids with --return_probabilities (KServe: a BYTES tensor of Python-repr dict strings, not JSON)' },
  'v2-logits': { kserve: 200, inferkit: 200, body: true, reason: 'V2 answers INT64 class ids with --return_raw_logits (KServe: a BYTES tensor of Python-repr dict strings)' },
  'route-GET_v2': { kserve: 200, inferkit: 200, body: true, reason: 'server metadata names inferkit and its version; no model repository extension' },
  'route-GET_v2_models_bert': { kserve: 200, inferkit: 200, body: true, reason: 'model metadata describes the model (versions [], platform onnxruntime, the text input and class-id output, labels); KServe sends versions null and empty lists' },
  'route-POST_v1_models_bert-explain': { kserve: 501, inferkit: 501, body: true, reason: 'same status; the message says inferkit serves no explainer (KServe: "Could not find explainer_host.")' },
  'bad-v1-missing-instances': { kserve: 500, inferkit: 400, reason: CLIENT_MISTAKE },
  'bad-v1-instances-string': { kserve: 200, inferkit: 400, reason: '`instances` must be a list of texts; a bare string is refused rather than guessed' },
  'bad-v1-instances-numbers': { kserve: 500, inferkit: 400, reason: CLIENT_MISTAKE },
  'bad-v1-instances-mixed': { kserve: 500, inferkit: 400, reason: CLIENT_MISTAKE },
  'bad-v1-instances-empty-list': { kserve: 500, inferkit: 400, reason: CLIENT_MISTAKE },
  'bad-v1-instances-null': { kserve: 500, inferkit: 400, reason: CLIENT_MISTAKE },
  'bad-v1-instances-nested': { kserve: 500, inferkit: 400, reason: CLIENT_MISTAKE },
  'bad-v1-body-array': { kserve: 500, inferkit: 400, reason: CLIENT_MISTAKE },
  'bad-v1-content-type-text-plain': { kserve: 500, inferkit: 200, reason: CONTENT_TYPE },
  'bad-v1-GET-predict': { kserve: 404, inferkit: 405, reason: 'the route exists for POST: 405 with an Allow header' },
  'bad-v2-malformed-json': { kserve: 422, inferkit: 400, reason: 'malformed JSON is 400 on V1 and V2 alike' },
  'bad-v2-missing-inputs': { kserve: 422, inferkit: 400, reason: SCHEMA_400 },
  'bad-v2-missing-shape': { kserve: 422, inferkit: 400, reason: SCHEMA_400 },
  'bad-v2-inputs-empty-list': { kserve: 500, inferkit: 400, reason: CLIENT_MISTAKE },
  'bad-v2-datatype-INT64-strings': { kserve: 500, inferkit: 400, reason: CLIENT_MISTAKE },
  'bad-v2-datatype-FP32-numbers': { kserve: 500, inferkit: 400, reason: CLIENT_MISTAKE },
  'bad-v2-BYTES-numbers': { kserve: 500, inferkit: 400, reason: CLIENT_MISTAKE },
  'bad-v2-shape-2d-nested': { kserve: 500, inferkit: 400, reason: CLIENT_MISTAKE },
  'bad-v2-data-empty': { kserve: 500, inferkit: 400, reason: CLIENT_MISTAKE },
  'bad-v2-shape-mismatch': { kserve: 200, inferkit: 400, reason: STRICT_V2 },
  'bad-v2-two-tensors': { kserve: 200, inferkit: 400, reason: STRICT_V2 },
  'bad-v2-content-type-text-plain': { kserve: 400, inferkit: 200, reason: `${CONTENT_TYPE}; inferkit has no binary tensor extension` },
  'fc-example': { kserve: 200, inferkit: 200, body: true, reason: 'the request\'s `metadata` is echoed in the answer (KServe drops it)' },
  'fc-extra-fields': { kserve: 200, inferkit: 200, body: true, reason: '`metadata`, `other_properties`, unknown top-level and per-input fields are echoed (KServe drops them)' },
  'fc-horizon-0': { kserve: 200, inferkit: 400, reason: 'a horizon must be ≥ 1 (`invalid_horizon`); KServe answers empty lists' },
  'fc-err-no-quantiles': { kserve: 500, inferkit: 200, reason: '`quantiles` is optional, as the interface says: the answer has the mean only' },
  'fc-err-quantile-not-in-model': { kserve: 500, inferkit: 200, reason: 'levels between the model\'s are interpolated' },
  'fc-err-multivariate': { kserve: 500, inferkit: 200, reason: 'multivariate series are forecast one variable at a time' },
  'fc-err-bad-frequency': { kserve: 422, inferkit: 400, reason: `${SCHEMA_400}; forecast errors are ForecastResponses with status "error"` },
  'fc-err-missing-options': { kserve: 422, inferkit: 400, reason: `${SCHEMA_400}; forecast errors are ForecastResponses with status "error"` },
};

/** Differences that hold for every exchange of a kind, so they are compared around rather than listed per id. */
export const GENERAL_DIFFERENCES: readonly string[] = [
  'Padding: KServe pads every text to the longest of the request with the classes computed for [PAD]; inferkit answers each text\'s own tokens (V1) and pads V2 rows with -1. Only own tokens are compared.',
  'Error messages: KServe passes Python exception text; inferkit names the field and the problem. Where the status is the same, only the `{"error": string}` shape is compared.',
  'Forecast values, `usage` and ids are model-specific or random: forecasts are compared on structure, keys, statuses, frequency, start_timestamp and lengths (the TimesFM of the recording is replaced by a baseline under its name).',
  'The 307 of `GET /v2/` carries a relative `location` (`/v2`); KServe writes an absolute URL.',
];
