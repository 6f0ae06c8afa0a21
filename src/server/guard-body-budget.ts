import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { InferkitError } from '../errors.js';
import { BUSY_RETRY_AFTER_S, setRetryAfter } from './retry-after.js';

/**
 * Bounds the bytes of request bodies being received by all requests together, so that many
 * slow or stalled uploads cannot hold the server's memory (each is also bounded by `bodyLimit`
 * and the request timeout). A request declaring a `Content-Length` reserves it before its body
 * is read; a chunked body is counted as it arrives. Beyond `maxBytes`: 503 with `Retry-After: 1`
 * and `Connection: close`. A request is always admitted when nothing else is being received,
 * so a body up to `bodyLimit` can pass on a quiet server. The bytes are freed when the
 * response ends or the client goes away. A declared `Content-Length` over `bodyLimit` is a 413 at
 * once (never the budget's 503: waiting would not help).
 */
export function installBodyBudget(app: FastifyInstance, maxBytes: number, bodyLimit: number): void {
  let reserved = 0;
  const take = (reply: FastifyReply, bytes: number): void => {
    if (reserved > 0 && reserved + bytes > maxBytes) {
      setRetryAfter(reply, BUSY_RETRY_AFTER_S);
      reply.header('connection', 'close');
      throw new InferkitError('model_not_ready', `the server is receiving too many request bodies at once (${bytes} bytes more would pass the limit of ${maxBytes}); retry shortly`);
    }
    reserved += bytes;
  };
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers['content-length'];
    const declared = Number(header ?? 0);
    // A declared length over the body limit is refused for what it is (413), before any budget, whatever its size (issue 28 N5).
    if (header !== undefined && /^\d+$/.test(header) && declared > bodyLimit) {
      reply.header('connection', 'close');
      throw new InferkitError('payload_too_large', `request body of ${header} bytes is larger than the server limit of ${bodyLimit} bytes`);
    }
    if (!(declared > 0) || !Number.isSafeInteger(declared)) {
      return;
    }
    take(reply, declared);
    reply.raw.once('close', () => (reserved -= declared));
  });
  app.addHook('preParsing', async (request, reply, payload) => {
    if (request.headers['content-length'] !== undefined) {
      return payload;
    }
    let mine = 0;
    reply.raw.once('close', () => (reserved -= mine));
    const counter = new Transform({
      transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
        try {
          take(reply, chunk.length);
          mine += chunk.length;
          done(null, chunk);
        } catch (e) {
          done(e as Error);
        }
      },
    });
    payload.on('error', (e) => counter.destroy(e));
    return payload.pipe(counter);
  });
}
