import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The only module that reads `process.env`. Library functions take explicit options;
 * the CLI and notebooks call these helpers to fill them from the environment.
 *
 * Precedence everywhere: explicit option > environment variable > default.
 */

/** Hub token from `HF_TOKEN` (or `HUGGING_FACE_HUB_TOKEN`), or undefined. Never log it. */
export function envHubToken(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const t = env.HF_TOKEN ?? env.HUGGING_FACE_HUB_TOKEN;
  return t && t.length > 0 ? t : undefined;
}

/** API key of `inferkit serve` from `INFERKIT_API_KEY`, or undefined (empty counts as unset). Never log it. */
export function envApiKey(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const k = env.INFERKIT_API_KEY;
  return k && k.length > 0 ? k : undefined;
}

/** Hub base URL from `HF_ENDPOINT`, default `https://huggingface.co`. */
export function envHubUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.HF_ENDPOINT && env.HF_ENDPOINT.length > 0 ? env.HF_ENDPOINT : 'https://huggingface.co';
}

/** Offline mode from `HF_HUB_OFFLINE` or `INFERKIT_OFFLINE` (`1`/`true`). */
export function envOffline(env: NodeJS.ProcessEnv = process.env): boolean {
  return [env.HF_HUB_OFFLINE, env.INFERKIT_OFFLINE].some((v) => v === '1' || v?.toLowerCase() === 'true');
}

/** How the model cache folder is chosen, for help texts (the rule lives in {@link envCacheDir}). */
export const CACHE_DIR_RULE = '$INFERKIT_CACHE, else $XDG_CACHE_HOME/inferkit, else ~/.cache/inferkit';

/**
 * The one model cache of inferkit (hub downloads and the built-in fixture models), shared by the CLI,
 * the server's default loaders, `loadTokenClassifier` and the notebooks: `INFERKIT_CACHE`, else
 * `$XDG_CACHE_HOME/inferkit`, else `~/.cache/inferkit`.
 */
export function envCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.INFERKIT_CACHE) {
    return env.INFERKIT_CACHE;
  }
  const base = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.length > 0 ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'inferkit');
}

/** Ingress address from `INGRESS_HOST` / `INGRESS_PORT`, defaults 127.0.0.1:8080. */
export function envIngress(env: NodeJS.ProcessEnv = process.env): { host: string; port: number } {
  const port = Number.parseInt(env.INGRESS_PORT ?? '', 10);
  return { host: env.INGRESS_HOST || '127.0.0.1', port: Number.isInteger(port) && port > 0 ? port : 8080 };
}

/** The value of environment variable `name`, or undefined when unset or empty. */
export function envVar(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const v = env[name];
  return v !== undefined && v.length > 0 ? v : undefined;
}

/**
 * The kubeconfig file `kubectl` would read: the first entry of `KUBECONFIG` (a `:`-separated list;
 * inferkit does not merge several files), else `~/.kube/config`.
 */
export function envKubeconfig(env: NodeJS.ProcessEnv = process.env): string {
  const first = (env.KUBECONFIG ?? '').split(process.platform === 'win32' ? ';' : ':').find((p) => p.length > 0);
  return first ?? join(homedir(), '.kube', 'config');
}

/** True when `KUBECONFIG` is set (a notebook then talks to that cluster instead of a stand-in). */
export function envHasKubeconfig(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.KUBECONFIG ?? '').length > 0;
}
