import { MASKED_SECRET } from '../contract/masked-secret.js';
import { maskSecretText } from './secret-text.js';

/**
 * One rule for which env vars hold credentials, shared by `inferkit validate` (a credential written
 * in clear is reported) and every place a manifest is shown back (its value is masked): the local
 * server's `/inferkit/v1/services`, `inferkit get -o yaml|json`, what `cluster()` returns (where a
 * Secret's values are masked too).
 */

/** A name's last word that makes it a credential (`HF_TOKEN`, `OPENAI_API_KEY`, `DB_PASSWORD`). */
const SECRET_LAST_WORDS = new Set(['TOKEN', 'KEY', 'APIKEY', 'SECRET', 'PASSWORD', 'PASSWD', 'PWD', 'PASSPHRASE', 'CREDENTIAL', 'CREDENTIALS', 'AUTHORIZATION', 'AUTH', 'BEARER']);
/** Words that make a name a credential wherever they stand (`SECRET_KEY_BASE`, `GOOGLE_APPLICATION_CREDENTIALS_JSON`). */
const SECRET_WORDS = new Set(['SECRET', 'PASSWORD', 'PASSWD', 'PASSPHRASE', 'CREDENTIAL', 'CREDENTIALS']);
/** Last words that say the value points to a credential rather than holding it (`PASSWORD_FILE`, `HF_TOKEN_PATH`). */
const REFERENCE_LAST_WORDS = new Set(['FILE', 'PATH', 'DIR', 'NAME', 'REF']);
/** Trailing words that only qualify the one before (`HF_TOKEN_VALUE`, `HF_ACCESS_TOKEN_1`, `API_KEY_B64`). */
const QUALIFIER_WORDS = /^(?:\d+|VALUE|VAL|STR|STRING|RAW|B64|BASE64|ENCODED|PLAIN|V\d+)$/;
/** A credential word glued to its prefix (`HFTOKEN`, `GHTOKEN`, `DBPASSWORD`, `HUBAPIKEY`). */
const GLUED_SECRET = /(?:TOKEN|SECRET|PASSWORD|PASSWD|APIKEY|ACCESSKEY|AUTH)$/;

export { MASKED_SECRET };

/** The words of an env var name: split on `_`, `-`, `.` and camelCase, upper-cased. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .split(/[_\-.\s]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toUpperCase());
}

/**
 * True when an env var of this name holds a credential: its last word is TOKEN, KEY, SECRET,
 * PASSWORD, CREDENTIALS… or SECRET/PASSWORD/CREDENTIALS stands anywhere in it, unless its last
 * word says it is a reference (`…_FILE`, `…_PATH`, `…_NAME`). Whole words only, so
 * `TOKENIZERS_PARALLELISM` or `MAX_NEW_TOKENS` are settings, not secrets.
 */
export function isSecretEnvName(name: string): boolean {
  const w = words(name);
  while (w.length > 1 && QUALIFIER_WORDS.test(w[w.length - 1] ?? '')) {
    w.pop();
  }
  const last = w[w.length - 1];
  if (last === undefined || REFERENCE_LAST_WORDS.has(last)) {
    return false;
  }
  return SECRET_LAST_WORDS.has(last) || GLUED_SECRET.test(last) || w.some((x) => SECRET_WORDS.has(x));
}

/**
 * True when a container env entry carries a credential in clear: a secret name (see
 * {@link isSecretEnvName}) with a non-empty `value` that is not a `$(VAR)` reference.
 * `valueFrom` entries never are (they name a Secret, not its content).
 */
export function isInlineSecretEnv(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) {
    return false;
  }
  const { name, value } = entry as { name?: unknown; value?: unknown };
  if (typeof name !== 'string' || typeof value !== 'string' || !isSecretEnvName(name)) {
    return false;
  }
  const v = value.trim();
  return v.length > 0 && !/^\$\([A-Za-z_][\w.-]*\)$/.test(v);
}

/**
 * A deep copy of `manifest` (or a list of them) with every inline credential in an `env` list
 * (predictor model, containers, init containers…) replaced by {@link MASKED_SECRET} (exactly what
 * `inferkit validate` reports), the values of `args`/`command` flags with a secret name
 * (`--hf_token=…`, `--api-key …`), and every value of a Secret's `stringData`/`data` replaced by
 * {@link MASKED_SECRET} (keys kept); everything else is unchanged.
 */
export function maskManifestSecrets<T>(manifest: T): T {
  return mask(manifest) as T;
}

/**
 * A copy of a Secret object with every value of its `stringData` and `data` replaced by
 * {@link MASKED_SECRET}; the keys and everything else are kept.
 */
export function maskSecretValues<T extends object>(secret: T): T {
  const out: Record<string, unknown> = { ...(secret as Record<string, unknown>) };
  for (const field of ['stringData', 'data']) {
    const values = out[field];
    if (typeof values === 'object' && values !== null && !Array.isArray(values)) {
      out[field] = Object.fromEntries(Object.keys(values).map((k) => [k, MASKED_SECRET]));
    }
  }
  return out as T;
}

/** Holds the whole object as JSON (kubectl's copy of the applied manifest): masked inside. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

function mask(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(mask);
  }
  if (typeof value === 'string') {
    return maskSecretText(value);
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  if ((value as { kind?: unknown }).kind === 'Secret') {
    return maskSecretValues(value);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'env' && Array.isArray(v)) {
      out[k] = v.map((e: unknown) => (isInlineSecretEnv(e) ? { ...(mask(e) as object), value: MASKED_SECRET } : mask(e)));
    } else if ((k === 'args' || k === 'command') && Array.isArray(v)) {
      out[k] = maskArgs(v);
    } else if (k === 'annotations' && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([ak, av]) => [ak, maskAnnotation(ak, av)]));
    } else {
      out[k] = mask(v);
    }
  }
  return out;
}

/**
 * True when an annotation holds a credential under its name: the part after the prefix
 * (`example.com/hf-token`) is a secret name (see {@link isSecretEnvName}) and the value is not empty.
 */
export function isSecretAnnotation(key: string, value: unknown): boolean {
  return typeof value === 'string' && value.trim().length > 0 && isSecretEnvName(key.slice(key.lastIndexOf('/') + 1));
}

function maskAnnotation(key: string, value: unknown): unknown {
  if (isSecretAnnotation(key, value)) {
    return MASKED_SECRET;
  }
  if (key === LAST_APPLIED && typeof value === 'string') {
    try {
      return JSON.stringify(mask(JSON.parse(value) as unknown));
    } catch {
      return maskSecretText(value);
    }
  }
  return mask(value);
}

/** `--hf_token=VALUE` → `--hf_token=<masked>`; `--api-key VALUE` → `--api-key <masked>`; credential shapes anywhere. */
function maskArgs(args: readonly unknown[]): unknown[] {
  return args.map((a, i) => {
    if (typeof a !== 'string') {
      return mask(a);
    }
    const eq = /^(--?[\w.-]+)=(.+)$/.exec(a);
    if (eq && isSecretEnvName(eq[1].replace(/^-+/, ''))) {
      return `${eq[1]}=${MASKED_SECRET}`;
    }
    const prev = args[i - 1];
    const flag = typeof prev === 'string' && /^--?[\w.-]+$/.test(prev) ? prev.replace(/^-+/, '') : undefined;
    return flag !== undefined && !a.startsWith('-') && isSecretEnvName(flag) ? MASKED_SECRET : maskSecretText(a);
  });
}
