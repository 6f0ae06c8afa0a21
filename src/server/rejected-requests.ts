import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clipText } from './clip-echo.js';
import type { ServerMetrics } from './server-metrics.js';

/** A request answered before any route ran (Node's parser, Fastify's router). */
export interface Rejection {
  /** HTTP status sent (400, 408, 414, 431). */
  status: number;
  /** Node's or Fastify's error code (`HPE_HEADER_OVERFLOW`, `FST_ERR_MAX_PARAM_LENGTH`…). */
  reason: string;
  /** Method, when the request line could be read. */
  method?: string | undefined;
  /** Path (query cut), when the request line could be read. */
  path?: string | undefined;
}

/** The metrics route label of requests rejected before routing. */
export const REJECTED_ROUTE = 'rejected';

/**
 * Counts requests the server answers before any route runs in `inferkit_requests_total{route="rejected",status}`
 * and writes them to the request log, which Fastify's hooks never see. A request timeout (408)
 * that hits a request already routed (a stalled body) is counted under its route with status 408
 * rather than as `aborted`.
 */
export class RejectedRequests {
  private readonly routed = new WeakSet<Socket>();
  private readonly timedOut = new WeakSet<Socket>();

  constructor(
    private readonly metrics: ServerMetrics,
    private readonly log: ((line: string) => void) | undefined,
  ) {}

  /** Marks the request's socket as carrying a routed request until its response closes. */
  track(request: FastifyRequest, reply: FastifyReply): void {
    const socket = request.raw.socket;
    this.routed.add(socket);
    reply.raw.once('close', () => this.routed.delete(socket));
  }

  /** True when Node answered the (routed) request's socket with a 408 before the response was written. */
  timedOutRequest(request: FastifyRequest): boolean {
    return this.timedOut.has(request.raw.socket);
  }

  /** Observes a rejection; `socket` tells a routed request's 408 from one before routing. */
  observe(r: Rejection, socket?: Socket): void {
    if (r.status === 408 && socket !== undefined && this.routed.has(socket)) {
      this.timedOut.add(socket);
      return;
    }
    this.metrics.requests.inc({ model: '', service: '', namespace: '', route: REJECTED_ROUTE, status: String(r.status) });
    this.log?.(rejectionLogLine(r));
  }
}

/** The request-log line of a rejection (method and path when known, the path cut at 200 characters). */
export function rejectionLogLine(r: Rejection): string {
  return JSON.stringify({
    time: new Date().toISOString(),
    method: r.method,
    path: r.path === undefined ? undefined : clipText(r.path.split('?')[0] ?? ''),
    status: r.status,
    rejected: r.reason,
  });
}

/** Method and path of the request line at the start of Node's raw packet, when there is one. */
export function requestLineOf(rawPacket: unknown): { method?: string; path?: string } {
  if (!Buffer.isBuffer(rawPacket)) {
    return {};
  }
  const m = /^([A-Z]{1,20}) (\S{1,4096})/.exec(rawPacket.subarray(0, 4200).toString('latin1'));
  return m ? { method: m[1], path: m[2] } : {};
}
