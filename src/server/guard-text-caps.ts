import { InferkitError } from '../errors.js';

/** Per-request caps of token-classification requests (part of `ServerLimits`). */
export interface TextCaps {
  /** Most texts in one request (V1 `instances`, V2 `inputs[0].data`). @default 1024 */
  maxTextsPerRequest: number;
  /** Most tokens in one request, counted from above (see {@link checkTextCaps}). @default 262144 (512 texts of 512 tokens) */
  maxTokensPerRequest: number;
}

/** A model's longest input when its args set none (BERT's 512 positions). */
const DEFAULT_MAX_TOKENS_PER_TEXT = 512;

/**
 * Refuses a request whose texts would hold the model too long (issue 28 N4: 100,000 texts in one
 * 1 MB request held it for over a minute): more than `maxTextsPerRequest` texts, or more than
 * `maxTokensPerRequest` tokens. Tokens are counted before tokenizing, from above: a text costs at
 * most one token per UTF-16 unit plus `[CLS]` and `[SEP]`, and never more than the model's
 * `maxLength` (it is truncated there) — so the cap never admits more work than it says. A 400
 * `invalid_request` names the cap, the option and the field.
 */
export function checkTextCaps(texts: readonly string[], caps: TextCaps, field: string, maxLength: number = DEFAULT_MAX_TOKENS_PER_TEXT): void {
  if (texts.length > caps.maxTextsPerRequest) {
    throw new InferkitError(
      'invalid_request',
      `${field}: ${texts.length} texts in one request; the limit is ${caps.maxTextsPerRequest} (maxTextsPerRequest, inferkit serve --max-texts-per-request): send them in several requests`,
      { param: field },
    );
  }
  let tokens = 0;
  for (const t of texts) {
    tokens += Math.min(maxLength, t.length + 2);
  }
  if (tokens > caps.maxTokensPerRequest) {
    throw new InferkitError(
      'invalid_request',
      `${field}: up to ${tokens} tokens in one request; the limit is ${caps.maxTokensPerRequest} (maxTokensPerRequest, inferkit serve --max-tokens-per-request; a text counts at most its length + 2, at most ${maxLength}): send fewer or shorter texts per request`,
      { param: field },
    );
  }
}
