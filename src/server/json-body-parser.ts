import type { FastifyInstance } from 'fastify';
import { InferkitError } from '../errors.js';
import { assertJsonDepth } from './guard-json-depth.js';

/** A media type as RFC 9110 writes it: `type/subtype`, parameters after. */
const MEDIA_TYPE = /^\s*[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+\s*(?:;|$)/;

/**
 * Every body is read as JSON whatever its Content-Type (curl's default form type included); a
 * body that is not JSON is a 400 naming the content type. Fastify's 415 is never answered; an empty
 * or malformed Content-Type is read as none.
 */
export function installJsonParser(app: FastifyInstance, maxDepth: number): void {
  // Fastify refuses a type it cannot parse (an empty or garbage header) before any parser runs: such a
  // header is dropped, so the body is read as JSON like any other (issue 28).
  app.addHook('onRequest', async (request) => {
    const type = request.headers['content-type'];
    if (type !== undefined && !MEDIA_TYPE.test(type)) {
      delete request.headers['content-type'];
    }
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim().length === 0) {
      done(null, undefined);
      return;
    }
    try {
      assertJsonDepth(text, maxDepth);
    } catch (e) {
      done(e as Error, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text) as unknown);
    } catch (cause) {
      const type = request.headers['content-type'] ?? 'none';
      const why = cause instanceof Error ? cause.message : 'parse error';
      done(new InferkitError('invalid_request', `request body is not valid JSON (content-type ${type}): ${why}`, { cause }), undefined);
    }
  });
}
