import type { FastifyReply } from 'fastify';

/** True when the response ended before it was fully written (the client went away). */
export function wasAborted(reply: FastifyReply): boolean {
  return !reply.raw.writableFinished;
}

/**
 * An AbortSignal that fires when the client disconnects before its response is written, so the
 * request's queued model work is dropped instead of run for nobody.
 */
export function disconnectSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (wasAborted(reply)) {
      controller.abort();
    }
  });
  return controller.signal;
}
