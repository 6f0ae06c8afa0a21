import type { FastifyReply, FastifyRequest } from 'fastify';
import { clipText } from './clip-echo.js';

/** Longest body excerpt a request log line carries. */
export const LOG_BODY_CHARS = 200;

/**
 * One JSON log line for a finished request: time, method, path, Host, status, latency, model and
 * the first {@link LOG_BODY_CHARS} characters of the body. Only written when request logging is on
 * (the body holds the input texts). The model always sees the whole body.
 */
export function requestLogLine(request: FastifyRequest, reply: FastifyReply, model: string): string {
  const body = bodyText(request.body);
  const excerpt = body !== undefined && body.length > LOG_BODY_CHARS ? `${body.slice(0, LOG_BODY_CHARS)}… (${body.length} chars)` : body;
  return JSON.stringify({
    time: new Date().toISOString(),
    method: request.method,
    path: clipText(request.url.split('?')[0] ?? ''),
    host: request.headers.host === undefined ? undefined : clipText(request.headers.host),
    status: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 10) / 10,
    model: model || undefined,
    body: excerpt,
  });
}

/** The body as JSON text; a body that cannot be written back (too deep, cyclic) is described instead, so the line is never lost. */
function bodyText(body: unknown): string | undefined {
  if (body === undefined) {
    return undefined;
  }
  try {
    return JSON.stringify(body);
  } catch (e) {
    return `(body not shown: ${e instanceof Error ? e.message : 'unserialisable'})`;
  }
}
