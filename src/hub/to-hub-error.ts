import { MASKED_SECRET } from '../contract/masked-secret.js';
import { InferkitError, isInferkitError } from '../errors.js';

/** What the failing call was about, for error messages (never the token itself). */
export interface HubErrorContext {
  repo: string;
  revision: string;
  hubUrl: string;
  /** The file being fetched, if any. */
  file?: string;
  /** Whether a token was sent (changes the advice for 401/403). */
  hasToken: boolean;
  /** The token, only so that it can be scrubbed from cause texts. */
  token: string | undefined;
}

/** A non-2xx hub answer reduced to what error mapping needs. */
export interface HubFailure {
  status: number;
  /** `X-Error-Code` header or equivalent (`GatedRepo`, `RepositoryNotFound`, `EntryNotFound`, `RevisionNotFound`). */
  errorCode?: string;
  message: string;
}

/** Replaces every occurrence of the token (and so its Bearer header form) by `<masked>` ({@link MASKED_SECRET}). */
export function scrubToken(text: string, token: string | undefined): string {
  if (!token) {
    return text;
  }
  return text.split(token).join(MASKED_SECRET);
}

/**
 * A copy of an error chain with the token scrubbed from every name, message and stack, so the
 * cause kept on an InferkitError can be printed or serialised safely. Depth-bounded.
 */
export function scrubError(err: unknown, token: string | undefined, depth = 0): unknown {
  if (!(err instanceof Error)) {
    return err === undefined || err === null ? err : scrubToken(String(err), token);
  }
  const copy = new Error(scrubToken(err.message, token));
  copy.name = scrubToken(err.name, token);
  copy.stack = err.stack === undefined ? undefined : scrubToken(err.stack, token);
  const status = (err as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number') {
    Object.assign(copy, { statusCode: status });
  }
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    Object.assign(copy, { code: scrubToken(code, token) });
  }
  if (err.cause !== undefined && depth < 5) {
    copy.cause = scrubError(err.cause, token, depth + 1);
  }
  return copy;
}

function what(ctx: HubErrorContext): string {
  return `${ctx.repo}@${ctx.revision}${ctx.file ? ` (file ${ctx.file})` : ''}`;
}

/** Maps a non-2xx hub answer to an InferkitError with advice. */
export function failureToError(f: HubFailure, ctx: HubErrorContext, cause?: unknown): InferkitError {
  const opts = { cause: cause === undefined ? undefined : scrubError(cause, ctx.token) };
  const page = `${ctx.hubUrl}/${ctx.repo}`;
  const notFound = f.errorCode === 'RepositoryNotFound' || /repository not found/i.test(f.message);
  if (f.status === 404 || ((f.status === 401 || f.status === 403) && notFound)) {
    const head =
      f.errorCode === 'RevisionNotFound' || /revision not found/i.test(f.message)
        ? `Revision "${ctx.revision}" of model ${ctx.repo} not found on ${ctx.hubUrl}`
        : f.errorCode === 'EntryNotFound' && ctx.file
          ? `File ${ctx.file} not found in model ${ctx.repo}@${ctx.revision}`
          : `Model ${ctx.repo} not found on ${ctx.hubUrl}`;
    const hint = ctx.hasToken ? '' : ' (if it is private, pass a token: HF_TOKEN or the accessToken option)';
    return new InferkitError('model_not_found', `${head}${notFound ? hint : ''}`, opts);
  }
  if (f.status === 401 || f.status === 403) {
    const msg = ctx.hasToken
      ? `The token given has no access to model ${what(ctx)} (HTTP ${f.status}): accept the model's conditions at ${page} with the token's account, or use a token with read access`
      : `Model ${what(ctx)} is gated or private (HTTP ${f.status}): a Hugging Face token is needed. Set HF_TOKEN or pass the accessToken option, after accepting the conditions at ${page}`;
    return new InferkitError('unauthorized', msg, opts);
  }
  return new InferkitError(
    'hub_error',
    `Hub answered HTTP ${f.status} for ${what(ctx)}: ${scrubToken(f.message, ctx.token).slice(0, 300)}`,
    opts,
  );
}

/**
 * Maps anything thrown while talking to the hub (an @huggingface/hub `HubApiError`, a fetch
 * `TypeError`, our own errors) to an InferkitError whose message and cause chain hold no token.
 * An abort is returned as the signal's reason.
 */
export function toHubError(err: unknown, ctx: HubErrorContext, signal?: AbortSignal): unknown {
  if (signal?.aborted) {
    return signal.reason;
  }
  if (isInferkitError(err)) {
    return err;
  }
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && err instanceof Error) {
    return failureToError({ status, message: err.message }, ctx, err);
  }
  const detail = err instanceof Error ? err.message : String(err);
  return new InferkitError(
    'network',
    `Could not reach the hub at ${ctx.hubUrl} for ${what(ctx)}: ${scrubToken(detail, ctx.token)}. Check the connection or hubUrl; with the files already cached, use offline: true`,
    { cause: scrubError(err, ctx.token) },
  );
}
