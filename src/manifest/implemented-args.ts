import { BASELINE_ARGS } from './baseline-args.js';

/**
 * KServe's tokenizer and output args: only token-classification models use them. KServe accepts them on
 * a forecasting service too and ignores them there, so inferkit does not fail such a service (a KServe
 * manifest keeps loading) but warns that they were ignored. inferkit's own args that a model would not
 * use fail its load instead (`unusedArgProblems` in serve-checks.ts): no KServe manifest carries them.
 */
export const TOKEN_CLASSIFICATION_ARGS: ReadonlySet<string> = new Set([
  'disable_lower_case',
  'disable_special_tokens',
  'max_length',
  'max_model_len',
  'return_probabilities',
  'return_raw_logits',
  'return_offsets_mapping',
]);

/** Args of KServe's Hugging Face runtime that inferkit implements (same meaning, same answers). */
export const IMPLEMENTED_ARGS: ReadonlySet<string> = new Set([
  'model_name',
  'model_id',
  'model_revision',
  'model_dir',
  'task',
  'backend',
  'protocol',
  'http_port',
  ...TOKEN_CLASSIFICATION_ARGS,
  // inferkit's own, for its offline forecasting baselines (KServe has no such models): --season, --seasonal_periods, --max_context.
  ...Object.keys(BASELINE_ARGS),
  // inferkit's own (KServe's parse_known_args ignores it): the int8 graph, as the onnx-variant annotation.
  'onnx_variant',
  // inferkit's own: build a token classifier's graph from model.safetensors even when the repo publishes ONNX.
  'graph_source',
]);
