import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseChronos2Config } from '../../../checkpoint/families/chronos-2/config.js';
import { modelGraphInfo, resolveModelGraph } from '../../../checkpoint/resolve-model-graph.js';
import { InferkitError } from '../../../errors.js';
import { parseModelRef } from '../../../hub/parse-model-ref.js';
import type { ResolveModelOptions } from '../../../hub/types.js';
import { withCacheDir } from '../../ort.js';
import { createChronos2, type Chronos2Model, type Chronos2Options } from './create-chronos-2.js';
import { withGraph } from '../forecast-model.js';

/** Options of {@link loadChronos2}: model options plus hub options (token, cache, offline …). */
export interface LoadChronos2Options extends Chronos2Options, Omit<ResolveModelOptions, 'files'> {}

/**
 * Loads Chronos-2 (`Chronos2Model`, e.g. `amazon/chronos-2`) from a folder or hub id as Amazon publishes it —
 * `config.json` + `model.safetensors` (or a sharded index, or `pytorch_model.bin`; F32/F16/BF16) — building the graph in TypeScript
 * once and caching it under `<cacheDir>/graphs/` (see resolveModelGraph; a second load reuses it). Errors:
 * `model_load_failed` naming the config field, the tensor or the architecture; the hub's codes from `resolveModel`.
 */
export async function loadChronos2(source: string, options: LoadChronos2Options = {}): Promise<Chronos2Model> {
  const { name: given, batchSize, runRows, contextLength, crossLearning, session, ...hub } = options;
  const graph = await resolveModelGraph(source, { ...hub, task: 'forecast', onnxGraphs: [], files: { required: ['config.json'] }, preferCheckpoint: true });
  if (graph.family !== 'chronos-2') {
    throw new InferkitError('model_load_failed', `${source}: a ${graph.family ?? 'non-Chronos-2'} checkpoint, not Chronos-2 (Chronos2Model)`, { param: 'architectures' });
  }
  const raw = JSON.parse(await readFile(graph.resolved.files['config.json'], 'utf8')) as Record<string, unknown>;
  const ref = parseModelRef(source);
  const name = given ?? (ref.kind === 'hub' ? ref.repo : basename(graph.resolved.dir));
  const sessionOptions = withCacheDir(session, hub.cacheDir);
  const model = await createChronos2(graph.graphPath, parseChronos2Config(raw, source), {
    name,
    ...(batchSize !== undefined ? { batchSize } : {}),
    ...(runRows !== undefined ? { runRows } : {}),
    ...(contextLength !== undefined ? { contextLength } : {}),
    ...(crossLearning !== undefined ? { crossLearning } : {}),
    ...(sessionOptions !== undefined ? { session: sessionOptions } : {}),
  });
  return withGraph(model, modelGraphInfo(graph));
}
