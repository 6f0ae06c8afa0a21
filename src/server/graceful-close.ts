import type { FastifyInstance } from 'fastify';
import { InferkitError } from '../errors.js';
import type { ConnectionGuard } from './guard-connections.js';
import { SHUTDOWN_RETRY_AFTER_S, setRetryAfter } from './retry-after.js';

/**
 * How long (ms) idle keep-alive connections stay open once closing starts: a pooled client that
 * sends in that time gets a 503 with `Connection: close` (a clean end) instead of a reset.
 */
export const IDLE_DRAIN_MS = 500;

/**
 * Graceful shutdown of a Fastify server. Once `close()` is called: the listener closes, every
 * response still to be written carries `Connection: close` (so each keep-alive client sees a clean
 * end after its last answer, never a reset), new requests on open connections get a 503
 * `{"error": …}` with `Retry-After: 5` and `Connection: close`, and in-flight requests finish.
 * Connections idle between requests are not closed at once (Node's `server.close()` would: a pooled
 * client that sent its next request in that instant got ECONNRESET, issue 28 M6) but ended with a
 * FIN after `IDLE_DRAIN_MS`. Connections still open after `graceMs` (a stalled upload, a model call
 * that never ends) are cut, so the process can exit. Returns the idempotent close function; call it
 * before anything else registers `onSend` hooks that must run first.
 */
export function installGracefulClose(app: FastifyInstance, guard: ConnectionGuard, graceMs: number, afterClose: () => Promise<void>): () => Promise<void> {
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
      // Node's server.close() (called by app.close()) ends idle connections at once; they are ended after the drain instead.
      app.server.closeIdleConnections = () => undefined;
      const drain = setTimeout(() => guard.endIdle(), Math.min(IDLE_DRAIN_MS, graceMs));
      try {
        await app.close();
      } finally {
        clearTimeout(cut);
        clearTimeout(drain);
      }
      await afterClose();
    })();
    return closing;
  };
}
