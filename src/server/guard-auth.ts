import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InferkitError } from '../errors.js';

/** Liveness paths, answered without a key (as TEI does) so orchestrator probes need no secret. */
const LIVENESS = new Set(['/', '/v2/health/live']);

/** Constant-time comparison of two strings (hashed first, so lengths leak nothing either). */
function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

/** The Bearer token of a request, or undefined. */
function bearer(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  const m = typeof h === 'string' ? /^Bearer\s+(.+)$/i.exec(h.trim()) : null;
  return m?.[1];
}

/**
 * Requires `Authorization: Bearer <apiKey>` on every route but liveness; a missing or wrong key
 * is a 401 in the contract's `{"error": …}` form (the key itself is never echoed).
 */
export function installApiKey(app: FastifyInstance, apiKey: string): void {
  if (apiKey.length === 0) {
    throw new InferkitError('config', 'server option apiKey must not be empty');
  }
  app.addHook('onRequest', async (request, reply) => {
    if (LIVENESS.has(request.url.split('?')[0] ?? '')) {
      return;
    }
    const token = bearer(request);
    if (token === undefined || !sameSecret(token, apiKey)) {
      reply.header('www-authenticate', 'Bearer');
      throw new InferkitError('unauthorized', token === undefined ? 'this server needs an API key: send Authorization: Bearer <key>' : 'the API key is not valid');
    }
  });
}
