import type { FastifyInstance } from 'fastify';
import { InferkitError } from '../errors.js';
import { normalizeHost } from './host-routing.js';

/** Loopback names always allowed. */
const LOOPBACK = ['localhost', '127.0.0.1', '::1'];

/** True when `host` (a bind address or name) is a loopback one. */
export function isLoopback(host: string): boolean {
  const h = normalizeHost(host);
  return LOOPBACK.includes(h) || h.startsWith('127.');
}

/** What a Host header is checked against. */
export interface HostAllowList {
  /** The hosts of the served InferenceServices. */
  served: ReadonlySet<string>;
  /** The serving domain: its sub-domains keep KServe's answers (404 for an unknown service). */
  domain: string;
  /** The interface the server binds (when not a wildcard). */
  bindHost: string;
  /** Extra names (`allowedHosts` option), e.g. the machine's LAN name. */
  extra: readonly string[];
}

/** True when `host` (a Host header) may reach this server. */
export function hostAllowed(raw: string | undefined, list: HostAllowList): boolean {
  const host = normalizeHost(raw);
  if (host === '') {
    return false;
  }
  if (LOOPBACK.includes(host) || host.endsWith('.localhost') || list.served.has(host) || host === normalizeHost(list.bindHost)) {
    return true;
  }
  if (host === list.domain || host.endsWith(`.${list.domain}`)) {
    return true;
  }
  return list.extra.some((e) => normalizeHost(e) === host);
}

/**
 * Refuses requests whose Host is not on the allow-list with 400 in the `{"error": …}` form, so a
 * DNS-rebinding page (Host: its own name) can neither read nor call the server.
 */
export function installHostAllowList(app: FastifyInstance, list: HostAllowList): void {
  app.addHook('onRequest', async (request) => {
    if (normalizeHost(request.headers.host) === '') {
      throw new InferkitError('invalid_request', 'the request has no Host header; send one (e.g. Host: localhost), HTTP/1.1 requires it');
    }
    if (!hostAllowed(request.headers.host, list)) {
      throw new InferkitError('invalid_request', `Host "${normalizeHost(request.headers.host)}" is not allowed on this server; add it with the allowedHosts option (--allowed-host)`);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      refuseCrossSite(request.headers['sec-fetch-site'], request.headers.origin, list);
    }
  });
}

/**
 * No CORS: a browser page of another site must not make the user's browser call the server (a
 * "simple" `text/plain` POST needs no preflight). Browsers mark such requests with
 * `Sec-Fetch-Site` and `Origin`; command-line clients send neither and are not affected.
 */
function refuseCrossSite(fetchSite: string | string[] | undefined, origin: string | string[] | undefined, list: HostAllowList): void {
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') {
    throw new InferkitError('invalid_request', `cross-site requests are refused (Sec-Fetch-Site: ${fetchSite}); this server has no CORS`);
  }
  if (typeof origin === 'string' && origin !== 'null' && !hostAllowed(hostOfOrigin(origin), list)) {
    throw new InferkitError('invalid_request', 'requests from another origin are refused; this server has no CORS');
  }
  if (origin === 'null') {
    throw new InferkitError('invalid_request', 'requests from an opaque origin are refused; this server has no CORS');
  }
}

function hostOfOrigin(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}
