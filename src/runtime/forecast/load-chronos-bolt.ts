import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { modelGraphInfo, resolveModelGraph } from '../../checkpoint/resolve-model-graph.js';
import { InferkitError } from '../../errors.js';
import { CHECKPOINT_WEIGHT_FILES, FORECAST_ONNX_GRAPHS, FORECAST_SIDE_FILES } from '../../hub/file-spec.js';
import { parseModelRef } from '../../hub/parse-model-ref.js';
import type { ResolveModelOptions } from '../../hub/types.js';
import { withCacheDir } from '../ort.js';
import { ChronosModelConfigSchema } from './chronos-config.js';
import { createChronosBolt, type ChronosBoltOptions } from './create-chronos-bolt.js';
import { withGraph, type ForecastModel } from './forecast-model.js';

/** Options of {@link loadChronosBolt}: model options plus hub options (token, cache, offline …). */
export interface LoadChronosBoltOptions extends ChronosBoltOptions, Omit<ResolveModelOptions, 'files'> {
  /** Build the graph from the checkpoint (`model.safetensors`, else `pytorch_model.bin`) even when the repo publishes an ONNX graph too (only the checkpoint is downloaded). @default false */
  preferCheckpoint?: boolean;
}

/**
 * Loads a Chronos-Bolt model from a local folder (`./models/bolt`, `/abs/path`) or a hub id
 * (`org/name`, `hf://org/name@rev`, cached in `cacheDir`, by default inferkit's one model cache): reads
 * `config.json` → `chronos_config`, and runs `onnx/model.onnx` (or `model.onnx`) with the external-data files
 * its graph names when the repo publishes one; else the checkpoint as Amazon publishes it (`model.safetensors`,
 * F32/F16/BF16, or a sharded index; or `pytorch_model.bin`) — only those files are downloaded — from which the graph is built in
 * TypeScript once and kept in the model cache (`<cacheDir>/graphs/`; a second load reuses it). Errors:
 * `model_load_failed` for a bad config, graph or checkpoint (naming the field, file or tensor), and the hub's
 * codes (`not_cached`, `unauthorized`, `model_not_found`, …) from `resolveModel`.
 */
export async function loadChronosBolt(source: string, options: LoadChronosBoltOptions = {}): Promise<ForecastModel> {
  const ref = parseModelRef(source);
  // A hub id is cached in `cacheDir`, by default (resolveModel's) the one model cache, like loadTokenClassifier.
  const graph = await resolveModelGraph(source, { ...options, task: 'forecast', onnxGraphs: FORECAST_ONNX_GRAPHS, files: FORECAST_SIDE_FILES });
  const { resolved, graphPath: modelPath } = graph;
  const configPath = resolved.files['config.json'];
  if (configPath === undefined) {
    throw new InferkitError('model_load_failed', `${source}: expected config.json beside onnx/model.onnx (or model.onnx) or a checkpoint (${CHECKPOINT_WEIGHT_FILES.join(', ')})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(configPath, 'utf8'));
  } catch (cause) {
    throw new InferkitError('model_load_failed', `${source}: config.json is not readable JSON (${(cause as Error).message})`, { cause });
  }
  const parsed = ChronosModelConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${['chronos_config', ...i.path.slice(1)].join('.')}: ${i.message}`).join('; ');
    throw new InferkitError('model_load_failed', `${source}: config.json has no valid chronos_config (${why})`);
  }
  const name = options.name ?? (ref.kind === 'hub' ? ref.repo : basename(resolved.dir));
  const session = withCacheDir(options.session, options.cacheDir);
  return withGraph(await createChronosBolt(modelPath, parsed.data.chronos_config, { ...options, name, ...(session !== undefined ? { session } : {}) }), modelGraphInfo(graph));
}
