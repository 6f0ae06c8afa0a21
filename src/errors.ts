/**
 * The one error type of inferkit. Every failure a caller can act on carries a `code`;
 * the server maps codes to HTTP statuses in `server/to-error-response.ts`.
 */
export type InferkitErrorCode =
  | 'invalid_request'
  | 'model_not_found'
  | 'model_not_ready'
  | 'model_load_failed'
  | 'inference_failed'
  | 'unsupported'
  | 'payload_too_large'
  | 'method_not_allowed'
  | 'http_error'
  | 'timeout'
  | 'network'
  | 'hub_error'
  | 'unauthorized'
  | 'not_cached'
  | 'config'
  | 'internal';

/** Options shared by every InferkitError. */
export interface InferkitErrorOptions {
  /** The underlying error, kept for debugging. */
  cause?: unknown;
  /** The request field the error is about, as a path like `inputs[2].series[5]`. */
  param?: string;
}

/** Base class of every error inferkit throws. */
export class InferkitError extends Error {
  override name = 'InferkitError';
  readonly code: InferkitErrorCode;
  readonly param: string | undefined;

  constructor(code: InferkitErrorCode, message: string, options: InferkitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.param = options.param;
  }
}

/** One validation problem: where (`path`, e.g. `inputs[0].series[3]`) and what was expected. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/** Raised when input does not match the contract; `issues` lists every problem found. */
export class ValidationError extends InferkitError {
  override name = 'ValidationError';
  readonly issues: ValidationIssue[];

  constructor(issues: ValidationIssue[], options: { cause?: unknown; context?: string } = {}) {
    const head = options.context ? `${options.context}: ` : '';
    const text = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
    super('invalid_request', `${head}${text}`, { cause: options.cause, param: issues[0]?.path });
    this.issues = issues;
  }
}

/**
 * A non-2xx HTTP answer from a remote service or hub. `body` is the server's message. `param` names the
 * request field the server blamed: `options.param` when given, else the body's `error.param` when it is a
 * string (the forecast API's `{ error: { code, message, param } }`, e.g. `options.horizon`); undefined when
 * the server named none (KServe's V1/V2 `{ error: "<message>" }`).
 */
export class HttpError extends InferkitError {
  override name = 'HttpError';
  readonly status: number;
  readonly url: string;
  readonly body: unknown;

  constructor(status: number, url: string, body: unknown, message: string, options: InferkitErrorOptions = {}) {
    super(codeForStatus(status), message, { ...options, param: options.param ?? errorParamOf(body) });
    this.status = status;
    this.url = url;
    this.body = body;
  }
}

/** The `error.param` of an error body when it is a string (`{ error: { param: "options.horizon" } }`). */
function errorParamOf(body: unknown): string | undefined {
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  const param = typeof error === 'object' && error !== null ? (error as { param?: unknown }).param : undefined;
  return typeof param === 'string' ? param : undefined;
}

function codeForStatus(status: number): InferkitErrorCode {
  if (status === 400 || status === 422) {
    return 'invalid_request';
  }
  if (status === 401 || status === 403) {
    return 'unauthorized';
  }
  if (status === 404) {
    return 'model_not_found';
  }
  if (status === 405) {
    return 'method_not_allowed';
  }
  if (status === 413) {
    return 'payload_too_large';
  }
  if (status === 503) {
    return 'model_not_ready';
  }
  return 'http_error';
}

/**
 * True for any inferkit error. Matches by name and code as well as `instanceof`, because
 * tslab cells re-evaluate modules and classes from two evaluations are not the same object.
 */
export function isInferkitError(e: unknown): e is InferkitError {
  if (e instanceof InferkitError) {
    return true;
  }
  if (typeof e !== 'object' || e === null) {
    return false;
  }
  const o = e as { name?: unknown; code?: unknown };
  return typeof o.code === 'string' && typeof o.name === 'string' && /Error$/.test(o.name) && 'param' in o;
}
