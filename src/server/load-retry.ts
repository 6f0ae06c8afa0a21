import { InferkitError, isInferkitError } from '../errors.js';

/** How a failed model load is retried (see `src/server/README.md`). */
export interface LoadRetry {
  /** Load attempts in all, the first included; `1` never retries. @default 4 */
  attempts: number;
  /** Wait before the first retry (ms); doubled before each next one. @default 1000 */
  initialDelayMs: number;
  /** Longest wait between two attempts (ms). @default 30000 */
  maxDelayMs: number;
}

/** The defaults documented in `src/server/README.md`. */
export const DEFAULT_LOAD_RETRY: LoadRetry = { attempts: 4, initialDelayMs: 1000, maxDelayMs: 30_000 };

/** `DEFAULT_LOAD_RETRY` with the given values; `attempts` must be an integer ≥ 1, delays ≥ 0. */
export function resolveLoadRetry(given: Partial<LoadRetry> = {}): LoadRetry {
  const r = { ...DEFAULT_LOAD_RETRY, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) } as LoadRetry;
  if (!Number.isInteger(r.attempts) || r.attempts < 1 || r.attempts > 100) {
    throw new InferkitError('config', `server option loadRetry.attempts must be an integer from 1 to 100, got ${String(r.attempts)}`);
  }
  for (const k of ['initialDelayMs', 'maxDelayMs'] as const) {
    if (typeof r[k] !== 'number' || !(r[k] >= 0)) {
      throw new InferkitError('config', `server option loadRetry.${k} must be a number ≥ 0, got ${String(r[k])}`);
    }
  }
  return r;
}

/** Wait (ms) after failed attempt `n` (1-based): `initialDelayMs · 2^(n-1)`, at most `maxDelayMs`. */
export function retryDelayMs(retry: LoadRetry, n: number): number {
  return Math.min(retry.maxDelayMs, retry.initialDelayMs * 2 ** Math.min(30, n - 1));
}

/** Failures another attempt cannot change: configuration, an unknown or gated model, a model not cached offline. */
const PERMANENT: ReadonlySet<string> = new Set(['config', 'unsupported', 'invalid_request', 'unauthorized', 'model_not_found', 'model_load_failed', 'not_cached']);

/** True when a load failure may go away on its own (network, hub, I/O, anything not known to be permanent). */
export function isRetryableLoadError(e: unknown): boolean {
  return !(isInferkitError(e) && PERMANENT.has(e.code));
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
