import type { RuntimeArgs } from '../manifest/parse-runtime-args.js';

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
  'disable_lower_case',
  'disable_special_tokens',
  'max_length',
  'max_model_len',
  'return_probabilities',
  'return_raw_logits',
  'return_offsets_mapping',
  // inferkit's own, for its offline forecasting baselines (KServe has no such models).
  'season',
  'seasonal_periods',
  'max_context',
  // inferkit's own (KServe's parse_known_args ignores it): the int8 graph, as the onnx-variant annotation.
  'onnx_variant',
]);

/**
 * Args about the Python server process (workers, gRPC, logging, docs) that have no counterpart in
 * inferkit's single Node server: accepted without a warning, since ignoring them changes no answer.
 */
export const PROCESS_ARGS: ReadonlySet<string> = new Set([
  'workers',
  'max_threads',
  'max_asyncio_workers',
  'grpc_port',
  'enable_grpc',
  'grpc_max_send_message_length',
  'grpc_max_receive_message_length',
  'configure_logging',
  'log_config_file',
  'access_log_format',
  'enable_latency_logging',
  'enable_docs_url',
  'disable_log_requests',
]);

/**
 * One warning per runtime arg that inferkit does not implement (e.g. `--dtype`, `--tensor_input_names`,
 * `--return_token_type_ids`, `--trust_remote_code`, or an arg KServe does not know either). KServe reads
 * its args with `parse_known_args`, so such args break neither server; inferkit says it ignored them.
 */
export function unimplementedArgWarnings(args: RuntimeArgs): string[] {
  const names = [...Object.keys(args.values), ...args.flags];
  return [...new Set(names)]
    .filter((n) => !IMPLEMENTED_ARGS.has(n) && !PROCESS_ARGS.has(n))
    .sort()
    .map((n) => `runtime arg --${n} is not implemented by inferkit and was ignored`);
}
