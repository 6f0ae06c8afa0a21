/** Env var names whose values are secrets (tokens, keys, passwords, credentials). */
const SECRET_NAME = /(token|secret|passw(or)?d|api[_-]?key|credential|auth|private[_-]?key|access[_-]?key)/i;

/** What a masked value is shown as. */
export const MASKED = '***';

/** True when an env var of this name holds a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * A copy of a manifest with `env[].value` of token-like names masked, in every container-like
 * object (predictor model, containers), so a manifest shown back never leaks a secret written
 * into it in clear. `valueFrom` references are kept: they name a Secret, not its content.
 */
export function maskManifestSecrets<T>(manifest: T): T {
  return mask(manifest) as T;
}

function mask(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(mask);
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === 'env' && Array.isArray(v) ? v.map(maskEnv) : mask(v);
  }
  return out;
}

function maskEnv(e: unknown): unknown {
  if (typeof e !== 'object' || e === null) {
    return e;
  }
  const { name, value } = e as { name?: unknown; value?: unknown };
  if (typeof name === 'string' && typeof value === 'string' && isSecretName(name)) {
    return { ...e, value: MASKED };
  }
  return e;
}
