import type { FastifyInstance } from 'fastify';
import { InferkitError } from '../errors.js';
import { SHUTDOWN_RETRY_AFTER_S, setRetryAfter } from './retry-after.js';

/**
 * Graceful shutdown of a Fastify server. Once `close()` is called: every response still to be
 * written carries `Connection: close` (so each keep-alive client sees a clean end after its last
 * answer, never a reset), idle keep-alive connections are closed at once, new requests on open
 * connections get a 503 `{"error": …}` with `Retry-After: 5`, and in-flight requests finish. Connections still open after
 * `graceMs` (a stalled upload, a model call that never ends) are cut, so the process can exit.
 * Returns the idempotent close function; call it before anything else registers `onSend` hooks
 * that must run first.
 */
export function installGracefulClose(app: FastifyInstance, graceMs: number, afterClose: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  app.addHook('onRequest', async (_request, reply) => {
    if (closing !== undefined) {
      setRetryAfter(reply, SHUTDOWN_RETRY_AFTER_S);
      throw new InferkitError('model_not_ready', 'the server is shutting down; retry with another replica or after it restarts');
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (closing !== undefined && request.raw.httpVersionMajor === 1) {
      reply.header('connection', 'close');
    }
    return payload;
  });
  return () => {
    closing ??= (async () => {
      const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
      try {
        const closed = app.close();
        // Connections that went idle in the instant before Fastify closed the listener.
        app.server.closeIdleConnections();
        await closed;
      } finally {
        clearTimeout(cut);
      }
      await afterClose();
    })();
    return closing;
  };
}
