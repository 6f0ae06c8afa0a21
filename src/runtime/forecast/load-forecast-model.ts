import { readFile } from 'node:fs/promises';
import { architectureOf, supportedArchitectures } from '../../checkpoint/architectures.js';
import { InferkitError } from '../../errors.js';
import { resolveModel } from '../../hub/resolve-model.js';
import type { ResolveModelOptions } from '../../hub/types.js';
import type { SessionOptions } from '../ort.js';
import type { ForecastModel } from './forecast-model.js';
import { loadChronos2 } from './chronos-2/load-chronos-2.js';
import { loadChronosBolt } from './load-chronos-bolt.js';
import { loadTimesFm } from './timesfm/load-timesfm.js';

/** What every forecast loader takes: the served name, ORT session options and the hub options. */
export interface ForecastLoaderOptions extends Omit<ResolveModelOptions, 'files'> {
  /** Name requests are checked against. @default the folder's name or the hub id */
  name?: string;
  /** ONNX Runtime session options. @default the loader's */
  session?: SessionOptions;
}

/** A family's loader: a folder or hub id → a ready {@link ForecastModel}. */
export type ForecastLoader = (source: string, options: ForecastLoaderOptions) => Promise<ForecastModel>;

/**
 * Forecasting family (checkpoint/architectures.ts, by `config.json` → `architectures`) → its loader.
 * One line per family.
 */
export const FORECAST_LOADERS: Partial<Record<string, ForecastLoader>> = {
  'chronos-bolt': loadChronosBolt,
  'chronos-2': loadChronos2,
  'timesfm-2.0': loadTimesFm,
  'timesfm-2.5': loadTimesFm,
};

/**
 * Loads the forecasting model in a folder or hub repo with its family's loader, chosen by `config.json`
 * (fetched first, alone): `architectures[0]` (e.g. `ChronosBoltModelForForecasting`); a config without
 * `architectures` but with a `chronos_config` is Chronos-Bolt (older exports). An unknown architecture is
 * `model_load_failed` naming `architectures`, `model_type` and the supported list; the hub's codes pass through.
 */
export async function loadForecastModel(source: string, options: ForecastLoaderOptions = {}): Promise<ForecastModel> {
  const resolved = await resolveModel(source, { ...options, files: { required: ['config.json'] } });
  const configPath = resolved.files['config.json'];
  let config: unknown;
  try {
    config = JSON.parse(await readFile(configPath, 'utf8'));
  } catch (cause) {
    throw new InferkitError('model_load_failed', `${source}: config.json is not readable JSON (${(cause as Error).message})`, { cause });
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw new InferkitError('model_load_failed', `${source}: config.json is not a JSON object`);
  }
  const loader = FORECAST_LOADERS[forecastFamily(config as Record<string, unknown>, source)];
  if (loader === undefined) {
    const ready = Object.keys(FORECAST_LOADERS).join(', ');
    throw new InferkitError('model_load_failed', `${source}: inferkit cannot load this forecaster yet (loads ${ready}; builds ${supportedArchitectures('forecast').join(', ')})`, { param: 'architectures' });
  }
  return loader(source, options);
}

/** The forecasting family of a `config.json`. */
function forecastFamily(config: Record<string, unknown>, source: string): string {
  const named = Array.isArray(config.architectures) && config.architectures.length > 0;
  if (!named && config.chronos_config !== undefined) {
    return 'chronos-bolt';
  }
  return architectureOf(config, source, 'forecast').family;
}
