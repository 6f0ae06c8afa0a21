import type { FastifyInstance } from 'fastify';
import { InferkitError } from '../errors.js';

/** What a listen error code means, in words. */
const LISTEN_ERRORS: Record<string, string> = {
  EADDRINUSE: 'the address is already in use (another server runs there; pick another --port, or 0 for any free one)',
  EACCES: 'permission denied (ports below 1024 need privileges; pick a port ≥ 1024)',
  EADDRNOTAVAIL: 'this machine has no such interface (use 127.0.0.1, 0.0.0.0 or one of its addresses)',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name does not resolve',
  ERR_SOCKET_BAD_PORT: 'the port must be an integer from 0 to 65535',
};

/**
 * Starts listening on `host:port`, with the port actually bound as result. A bind failure (busy
 * port, invalid port or host, missing privileges) is a `config` InferkitError with one clear
 * sentence, so the command line prints one line instead of a stack trace.
 */
export async function listenOn(app: FastifyInstance, host: string, port: number): Promise<number> {
  try {
    await app.listen({ port, host });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    const why = LISTEN_ERRORS[code] ?? (e instanceof Error ? e.message : String(e));
    throw new InferkitError('config', `cannot listen on ${host}:${port}: ${why}`, { cause: e });
  }
  const address = app.server.address();
  return typeof address === 'object' && address !== null ? address.port : port;
}
