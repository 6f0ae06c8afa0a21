import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseTimesFmConfig, TimesFm20ConfigSchema, TimesFm25ConfigSchema } from '../../../checkpoint/families/timesfm/config.js';
import { modelGraphInfo, resolveModelGraph } from '../../../checkpoint/resolve-model-graph.js';
import { InferkitError } from '../../../errors.js';
import { parseModelRef } from '../../../hub/parse-model-ref.js';
import type { ResolveModelOptions } from '../../../hub/types.js';
import { withCacheDir } from '../../ort.js';
import { withGraph, type ForecastModel } from '../forecast-model.js';
import { createTimesFm20, createTimesFm25, type TimesFmOptions } from './create-timesfm.js';

/** The TimesFM families `loadTimesFm` builds (architectures.ts ids). */
export const TIMESFM_FAMILIES = ['timesfm-2.0', 'timesfm-2.5'] as const;

/** Options of {@link loadTimesFm}: model options plus hub options (token, cache, offline …). */
export interface LoadTimesFmOptions extends TimesFmOptions, Omit<ResolveModelOptions, 'files'> {}

/**
 * Loads TimesFM 2.0 (`TimesFmModelForPrediction`, e.g. `google/timesfm-2.0-500m-pytorch`) or TimesFM 2.5
 * (`TimesFm2_5ModelForPrediction`) from a folder or hub id as its authors publish it — `config.json` +
 * `model.safetensors` (or a sharded index; or `pytorch_model.bin`) — building the graph in TypeScript once and caching it under
 * `<cacheDir>/graphs/` (see resolveModelGraph). Errors: `model_load_failed` naming the config field, the
 * tensor or the architecture; the hub's codes from `resolveModel`.
 */
export async function loadTimesFm(source: string, options: LoadTimesFmOptions = {}): Promise<ForecastModel> {
  const { name: given, batchSize, session, clampScope, forceFlipInvariance, truncateNegative, onRun, ...hub } = options;
  const graph = await resolveModelGraph(source, { ...hub, task: 'forecast', onnxGraphs: [], files: { required: ['config.json'] }, preferCheckpoint: true });
  const family = graph.family ?? '';
  if (!(TIMESFM_FAMILIES as readonly string[]).includes(family)) {
    throw new InferkitError('model_load_failed', `${source}: a ${family || 'non-TimesFM'} checkpoint, not TimesFM 2.0 or 2.5`, { param: 'architectures' });
  }
  const raw = JSON.parse(await readFile(graph.resolved.files['config.json'], 'utf8')) as unknown;
  const ref = parseModelRef(source);
  const name = given ?? (ref.kind === 'hub' ? ref.repo : basename(graph.resolved.dir));
  const modelOptions: TimesFmOptions & { name: string } = { name, batchSize, session: withCacheDir(session, hub.cacheDir), clampScope, forceFlipInvariance, truncateNegative, onRun };
  const model =
    family === 'timesfm-2.0'
      ? await createTimesFm20(graph.graphPath, parseTimesFmConfig(TimesFm20ConfigSchema, raw, source), modelOptions)
      : await createTimesFm25(graph.graphPath, parseTimesFmConfig(TimesFm25ConfigSchema, raw, source), modelOptions);
  return withGraph(model, modelGraphInfo(graph));
}
