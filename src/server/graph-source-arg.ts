import { InferkitError } from '../errors.js';
import type { RuntimeConfig } from '../manifest/runtime-config.js';

/** inferkit's runtime arg choosing where a token classifier's graph comes from (KServe's `parse_known_args` ignores it). */
export const GRAPH_SOURCE_ARG = 'graph_source';

/**
 * `--graph_source`: `auto` (default) serves the repo's published ONNX graph when it has one, else the graph
 * built from its checkpoint (`model.safetensors`, else `pytorch_model.bin`); `checkpoint` builds from the checkpoint even when an ONNX graph is
 * published. Anything else is a `config` error naming the arg.
 */
export function graphSourceOf(config: RuntimeConfig): 'auto' | 'checkpoint' {
  const raw = config.args.values[GRAPH_SOURCE_ARG];
  if (raw === undefined) {
    return 'auto';
  }
  const value = raw.trim().toLowerCase();
  if (value === 'auto' || value === 'checkpoint') {
    return value;
  }
  throw new InferkitError('config', `--${GRAPH_SOURCE_ARG}: expected "auto" (the published ONNX graph, else the checkpoint) or "checkpoint" (build from model.safetensors or pytorch_model.bin), got "${raw}"`, { param: GRAPH_SOURCE_ARG });
}
