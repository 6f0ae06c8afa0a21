import { MASKED_SECRET } from '../contract/masked-secret.js';

/**
 * Credentials recognised by what they look like, wherever they stand in a manifest (an env var of
 * any name, an annotation, a `storageUri`, an arg) — the name rule (`isSecretEnvName`) misses a hub
 * token under `HFTOKEN_VALUE` or in `https://user:token@host` (issue 28 N3).
 */
interface Shape {
  /** What `inferkit validate` calls it. */
  what: string;
  pattern: RegExp;
  /** The text that replaces a match (`$1` keeps a prefix such as the auth scheme). */
  replace: string;
}

const SHAPES: readonly Shape[] = [
  // An auth header value, before the token shapes so that `Bearer hf_…` keeps its scheme word.
  // A digit is required, so that prose ("Basic authentication") is not taken for a credential.
  { what: 'an Authorization credential', pattern: /\b([Bb]earer|Basic)\s+(?=[A-Za-z._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}/g, replace: `$1 ${MASKED_SECRET}` },
  { what: 'credentials in a URI', pattern: /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi, replace: `$1${MASKED_SECRET}@` },
  { what: 'a Hugging Face token', pattern: /\b(?:hf|api_org)_[A-Za-z0-9]{20,}\b/g, replace: MASKED_SECRET },
  { what: 'a GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})\b/g, replace: MASKED_SECRET },
  { what: 'an API key', pattern: /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}/g, replace: MASKED_SECRET },
  { what: 'an AWS access key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replace: MASKED_SECRET },
  { what: 'a Slack token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, replace: MASKED_SECRET },
  { what: 'a JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, replace: MASKED_SECRET },
];

/** What kind of credential `text` holds (`a Hugging Face token`…), or undefined when none is recognised. */
export function secretInText(text: string): string | undefined {
  for (const s of SHAPES) {
    s.pattern.lastIndex = 0;
    const m = s.pattern.exec(text);
    // A URI whose userinfo is already masked holds nothing.
    if (m !== null && !m[0].includes(MASKED_SECRET)) {
      return s.what;
    }
  }
  return undefined;
}

/** `text` with every recognised credential replaced by {@link MASKED_SECRET} (`Bearer <masked>`, `https://<masked>@host`). */
export function maskSecretText(text: string): string {
  let out = text;
  for (const s of SHAPES) {
    out = out.replace(s.pattern, s.replace);
  }
  return out;
}
