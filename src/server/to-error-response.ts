import type { ErrorBody } from '../contract/v1.js';
import { type InferkitErrorCode, isInferkitError } from '../errors.js';
import { maskSecretText } from '../manifest/secret-text.js';

/** HTTP status and `{"error": …}` body for one failure. */
export interface ErrorResponse {
  /** HTTP status code. */
  status: number;
  /** KServe's error body. */
  body: ErrorBody;
  /** The inferkit error code the status was chosen from. */
  code: InferkitErrorCode;
}

/**
 * The one map from an error code to an HTTP status. Client mistakes are 4xx; only real server
 * faults (`inference_failed`, `internal`, anything unknown) are 500.
 */
export const STATUS_BY_CODE: Readonly<Record<InferkitErrorCode, number>> = {
  invalid_request: 400,
  model_not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  model_not_ready: 503,
  model_load_failed: 503,
  unsupported: 501,
  unauthorized: 401,
  inference_failed: 500,
  http_error: 502,
  timeout: 504,
  network: 502,
  hub_error: 502,
  not_cached: 503,
  config: 500,
  internal: 500,
};

/** Fastify's own errors (body parsing, limits) carry a `FST_…` code and a `statusCode`. */
function fastifyCode(e: unknown): InferkitErrorCode | undefined {
  if (typeof e !== 'object' || e === null) {
    return undefined;
  }
  const { code, statusCode } = e as { code?: unknown; statusCode?: unknown };
  if (typeof code !== 'string' || !code.startsWith('FST_') || typeof statusCode !== 'number') {
    return undefined;
  }
  if (statusCode === 413) {
    return 'payload_too_large';
  }
  if (statusCode === 404) {
    return 'model_not_found';
  }
  if (statusCode === 405) {
    return 'method_not_allowed';
  }
  // Every other request-shaped Fastify failure (415 media type, empty JSON body, bad header) is the
  // client's mistake and the contract says 400 for all of them.
  if (statusCode >= 400 && statusCode < 500) {
    return 'invalid_request';
  }
  return 'internal';
}

function messageOf(e: unknown, code: InferkitErrorCode): string {
  if (code === 'payload_too_large' && !isInferkitError(e)) {
    return 'request body is larger than the server limit';
  }
  if (e instanceof Error && e.message) {
    return maskSecretText(e.message);
  }
  return 'internal server error';
}

/**
 * Maps any thrown value to an HTTP status and `{"error": message}`. InferkitErrors keep their
 * message; Fastify's parse/limit errors become 400/413; anything else is a 500.
 */
export function toErrorResponse(e: unknown): ErrorResponse {
  const code: InferkitErrorCode = isInferkitError(e) ? e.code : (fastifyCode(e) ?? 'internal');
  return { status: STATUS_BY_CODE[code] ?? 500, code, body: { error: messageOf(e, code) } };
}
