import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { InferkitError } from '../errors.js';
import { errorResponse } from '../protocol/forecast/error-response.js';
import { FORECAST_PATH, requestedModel } from './forecast-route.js';
import { clipQuoted } from './clip-echo.js';
import { redactForecastError, redactPaths } from './redact-paths.js';
import { requestLineOf, type Rejection } from './rejected-requests.js';
import { toErrorResponse } from './to-error-response.js';

/** Longest path parameter (model name) the router accepts; longer is a 414. */
export const MAX_PARAM_LENGTH = 1024;

/**
 * The server's error handler: `{"error": …}` with the mapped status (a ForecastResponse with
 * `status: "error"` on the forecast route). Absolute file paths in messages are cut to their
 * last part (`redactPaths`).
 */
export function errorReply(error: unknown, request: FastifyRequest, reply: FastifyReply, bodyLimit: number): unknown {
  const e = clearerFastifyError(error, request, bodyLimit);
  const mapped = toErrorResponse(e);
  reply.code(mapped.status);
  if (request.url.split('?')[0] === FORECAST_PATH) {
    return redactForecastError(errorResponse(mapped.status === 500 ? e : asInferkit(e, mapped.code, mapped.body.error), requestedModel(request.body)));
  }
  return { error: clipQuoted(redactPaths(mapped.body.error)) };
}

/**
 * Fastify's routing errors (`frameworkErrors`), which it would otherwise answer in its own form:
 * a path parameter over {@link MAX_PARAM_LENGTH} is a 414, a URL that cannot be decoded a 400,
 * both as `{"error": …}` without echoing the URL; `onRejected` counts and logs it.
 */
export function frameworkErrorReply(error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply, onRejected?: (r: Rejection) => void): void {
  const [status, message] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? [414, `a segment of the URL path is longer than ${MAX_PARAM_LENGTH} characters (the longest model name served)`]
      : error.code === 'FST_ERR_BAD_URL'
        ? [400, 'the URL path is not valid: it has a malformed percent-encoding (%XX)']
        : [400, `the request could not be routed (${error.code ?? 'error'})`];
  onRejected?.({ status, reason: error.code ?? 'error', method: request.method, path: request.url });
  void reply.code(status).send({ error: message });
}

/**
 * Requests Node's HTTP parser refuses before any route runs (`clientErrorHandler`): 408 for a
 * request not received within the request timeout, 431 for headers (the URL counted) over
 * Node's 16 KiB, 400 for anything malformed; all as `{"error": …}`, then the connection closes.
 * `onRejected` counts and logs it (see `RejectedRequests`).
 */
export function clientErrorReply(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket, onRejected?: (r: Rejection, socket: Socket) => void): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) {
    return;
  }
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'the request was not received within the request timeout (limits.requestTimeoutMs)']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'the request headers are larger than the server accepts (16 KiB, the URL included)']
        : [400, `malformed HTTP request (${error.code ?? 'parse error'})`];
  onRejected?.({ status, reason: error.code ?? 'parse error', ...requestLineOf(error.rawPacket) }, socket);
  const body = JSON.stringify({ error: message });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}

/** Fastify's body-limit and content-type errors with messages that say what to do. */
function clearerFastifyError(error: unknown, request: FastifyRequest, bodyLimit: number): unknown {
  if (error instanceof InferkitError) {
    return error;
  }
  const code = toErrorResponse(error).code;
  if (code === 'payload_too_large') {
    return new InferkitError('payload_too_large', `request body is larger than the limit of ${bodyLimit} bytes`, { cause: error });
  }
  const fst = (error as { code?: unknown }).code;
  if (code === 'invalid_request' && typeof fst === 'string' && fst.startsWith('FST_ERR_CTP_')) {
    const type = JSON.stringify(request.headers['content-type'] ?? '');
    return new InferkitError('invalid_request', `request body could not be read (content-type ${type}): ${(error as Error).message}; send JSON with content-type application/json`, { cause: error });
  }
  return error;
}

/** Fastify's own errors as InferkitErrors, so the forecast error body gets the right code and type. */
function asInferkit(e: unknown, code: InferkitError['code'], message: string): unknown {
  return e instanceof InferkitError ? e : new InferkitError(code, message, { cause: e });
}
