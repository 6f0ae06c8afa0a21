import type { FastifyInstance } from 'fastify';
import { InferkitError } from '../errors.js';
import { errorResponse } from '../protocol/forecast/error-response.js';
import { FORECAST_PATH } from './forecast-route.js';

/**
 * Refuses a compressed body (`Content-Encoding` other than `identity`) with 415 instead of reading
 * gzip bytes as JSON: the server does not decompress.
 */
export function installEncodingGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const enc = request.headers['content-encoding'];
    if (enc === undefined || enc.trim().toLowerCase() === 'identity' || enc.trim() === '') {
      return undefined;
    }
    const message = `Content-Encoding "${enc}" is not supported: send the body uncompressed`;
    reply.code(415).header('accept-encoding', 'identity');
    const forecast = request.url.split('?')[0] === FORECAST_PATH;
    return reply.send(forecast ? errorResponse(new InferkitError('invalid_request', message), '') : { error: message });
  });
}
