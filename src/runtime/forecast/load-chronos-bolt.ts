import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { InferkitError } from '../../errors.js';
import { FORECAST_FILES } from '../../hub/file-spec.js';
import { parseModelRef } from '../../hub/parse-model-ref.js';
import type { ResolveModelOptions } from '../../hub/types.js';
import { resolveOnnxModel } from '../resolve-onnx-model.js';
import { ChronosModelConfigSchema } from './chronos-config.js';
import { createChronosBolt, type ChronosBoltOptions } from './create-chronos-bolt.js';
import type { ForecastModel } from './forecast-model.js';

/** Options of {@link loadChronosBolt}: model options plus hub options (token, cache, offline …). */
export interface LoadChronosBoltOptions extends ChronosBoltOptions, Omit<ResolveModelOptions, 'files'> {}

/**
 * Loads a Chronos-Bolt ONNX model from a local folder (`./models/bolt`, `/abs/path`) or a hub id
 * (`org/name`, `hf://org/name@rev`, cached in `cacheDir`, by default inferkit's one model cache): reads `config.json` → `chronos_config` and
 * `onnx/model.onnx` (or `model.onnx`) with the external-data files its graph names (real exports
 * keep their weights in `onnx/model.onnx.data`; fetched from the hub too). Errors: `model_load_failed` for a bad config or graph,
 * and the hub's codes (`not_cached`, `unauthorized`, `model_not_found`, …) from `resolveModel`.
 */
export async function loadChronosBolt(source: string, options: LoadChronosBoltOptions = {}): Promise<ForecastModel> {
  const ref = parseModelRef(source);
  // A hub id is cached in `cacheDir`, by default (resolveModel's) the one model cache, like loadTokenClassifier.
  const { resolved, graphPath: modelPath } = await resolveOnnxModel(source, FORECAST_FILES, ['onnx/model.onnx', 'model.onnx'], options);
  const configPath = resolved.files['config.json'];
  if (configPath === undefined) {
    throw new InferkitError('model_load_failed', `${source}: expected config.json and onnx/model.onnx (or model.onnx)`);
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
  return createChronosBolt(modelPath, parsed.data.chronos_config, { ...options, name });
}
