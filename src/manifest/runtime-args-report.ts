import { baselineOf } from './baseline-args.js';
import { IMPLEMENTED_ARGS, TOKEN_CLASSIFICATION_ARGS } from './implemented-args.js';
import { didYouMean } from './kserve-crd/did-you-mean.js';
import type { ServeTask } from './model-task.js';
import type { RuntimeArgs } from './parse-runtime-args.js';

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
 * `--return_token_type_ids`, `--trust_remote_code`, or an arg KServe does not know either), and on a
 * `time_series_forecast` service one per token-classification arg ({@link TOKEN_CLASSIFICATION_ARGS}),
 * one for `--model_dir` next to `--model_id` (which wins), and one for `--model_revision` on a baseline.
 * KServe reads its args with `parse_known_args`, so such args break neither server; inferkit says it
 * ignored them.
 */
export function unimplementedArgWarnings(args: RuntimeArgs, task?: ServeTask): string[] {
  const names = [...new Set([...Object.keys(args.values), ...args.flags])].sort();
  const unimplemented = names
    .filter((n) => !IMPLEMENTED_ARGS.has(n) && !PROCESS_ARGS.has(n))
    .map((n) => {
      const hint = didYouMean(n, [...IMPLEMENTED_ARGS, ...PROCESS_ARGS]);
      return `runtime arg --${n} is not implemented by inferkit and was ignored${hint !== undefined ? `; did you mean --${hint}?` : ''}`;
    });
  // KServe too ignores --model_dir when --model_id names the model; say so rather than ignore it silently.
  const shadowed = args.values.model_dir !== undefined && args.values.model_id !== undefined
    ? ['runtime arg --model_dir was ignored: --model_id names the model (--model_dir is read only without --model_id, as in KServe)']
    : [];
  const tokenOnly = task === 'time_series_forecast'
    ? names.filter((n) => TOKEN_CLASSIFICATION_ARGS.has(n)).map((n) => `runtime arg --${n} applies to token classification only and was ignored by this forecasting model`)
    : [];
  const baseline = task === 'time_series_forecast' ? baselineOf(args.values.model_id) : undefined;
  const revision = baseline !== undefined && args.values.model_revision !== undefined
    ? [`runtime arg --model_revision was ignored: the ${baseline} baseline is built in, not fetched from the hub`]
    : [];
  return [...unimplemented, ...shadowed, ...tokenOnly, ...revision];
}
