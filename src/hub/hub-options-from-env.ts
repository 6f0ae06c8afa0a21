import { envCacheDir, envHubToken, envHubUrl, envOffline } from '../config.js';
import type { ResolveModelOptions } from './types.js';

/**
 * Hub options from the environment, for the CLI and notebooks: `HF_TOKEN`, `HF_ENDPOINT`,
 * `HF_HUB_OFFLINE`/`INFERKIT_OFFLINE`, `INFERKIT_CACHE` (see src/config.ts). Explicit
 * `overrides` win: `resolveModel(id, { ...hubOptionsFromEnv(), files: FORECAST_FILES })`.
 */
export function hubOptionsFromEnv(
  overrides: Partial<ResolveModelOptions> = {},
  env?: NodeJS.ProcessEnv,
): ResolveModelOptions {
  const accessToken = envHubToken(env);
  return {
    cacheDir: envCacheDir(env),
    hubUrl: envHubUrl(env),
    offline: envOffline(env),
    ...(accessToken === undefined ? {} : { accessToken }),
    ...overrides,
  };
}
