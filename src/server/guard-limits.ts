import type { Server } from 'node:http';
import type { FastifyReply } from 'fastify';
import { InferkitError } from '../errors.js';
import { BUSY_RETRY_AFTER_S, setRetryAfter } from './retry-after.js';

/** Connection and request limits of the server (see `src/server/README.md`). */
export interface ServerLimits {
  /** Longest time (ms) to receive a whole request, headers and body; the connection is cut beyond (408). @default 30000 */
  requestTimeoutMs: number;
  /** Longest time (ms) to receive the request headers. @default 10000 */
  headersTimeoutMs: number;
  /** Longest idle time (ms) of a connection with no request in progress. @default 5000 (Node's keep-alive) */
  keepAliveTimeoutMs: number;
  /** Most open connections (beside the probe headroom); at the cap a new one evicts the oldest idle one, else is closed (guard-connections.ts). @default 1024 */
  maxConnections: number;
  /** Most open connections from one peer address; beyond it the peer's oldest idle one is evicted, else the new one closed. @default 256 */
  maxConnectionsPerPeer: number;
  /** A connection that sends no byte for this long (ms) after it opens is closed. @default 2000 */
  firstByteTimeoutMs: number;
  /** Connections admitted beyond `maxConnections` when every slot is in a request, for health and readiness probes only. @default 64 */
  probeHeadroom: number;
  /** Most requests one model holds (running or waiting); beyond it 503 with `Retry-After`. @default 256 */
  maxQueuePerModel: number;
  /** Most texts in one token-classification request; beyond it 400 naming the cap. @default 1024 */
  maxTextsPerRequest: number;
  /** Most tokens in one token-classification request, counted from above (guard-text-caps.ts); beyond it 400 naming the cap. @default 262144 */
  maxTokensPerRequest: number;
  /** Most bytes of request bodies being received by all requests together; beyond it 503 with `Retry-After`. @default 268435456 (256 MiB) */
  maxBodyBytesInFlight: number;
  /** Longest wait (ms) on close for in-flight requests; connections still open after it are cut. @default 10000 */
  shutdownTimeoutMs: number;
}

/** The defaults documented in `src/server/README.md`. */
export const DEFAULT_LIMITS: ServerLimits = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1024,
  maxConnectionsPerPeer: 256,
  firstByteTimeoutMs: 2_000,
  probeHeadroom: 64,
  maxQueuePerModel: 256,
  maxTextsPerRequest: 1024,
  maxTokensPerRequest: 262_144,
  shutdownTimeoutMs: 10_000,
  maxBodyBytesInFlight: 256 * 1024 * 1024,
};

/**
 * `DEFAULT_LIMITS` with the given ones; every value must be a positive number. The header timeout
 * is at most the request timeout (the headers are part of the request; Node enforces neither
 * properly otherwise), so `requestTimeoutMs: 5000` alone also cuts headers at 5 s.
 */
export function resolveLimits(given: Partial<ServerLimits> = {}): ServerLimits {
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
  for (const [k, v] of Object.entries(limits)) {
    if (typeof v !== 'number' || !(v > 0)) {
      throw new InferkitError('config', `server option ${k} must be a positive number, got ${String(v)}`);
    }
  }
  return { ...limits, headersTimeoutMs: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) };
}

/**
 * How often Node checks the request and header timeouts: often enough that a timeout is kept
 * to within a quarter of itself (Node's default check runs only every 30 s).
 */
export function checkingInterval(limits: ServerLimits): number {
  return Math.max(50, Math.min(1000, Math.floor(Math.min(limits.requestTimeoutMs, limits.headersTimeoutMs) / 4)));
}

/** Applies the header, request and keep-alive timeouts to the HTTP server (the connection cap is guard-connections.ts's). */
export function applyServerLimits(server: Server, limits: ServerLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
}

/** Per-model count of admitted requests (running or waiting for a batch). */
export class ModelQueue {
  private readonly held = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /**
   * Admits a request for `model`, or throws `model_not_ready` (503) with `Retry-After: 1` when the
   * model already holds `limit` requests. The slot is released when the response ends or the
   * client goes away.
   */
  admit(model: string, reply: FastifyReply): void {
    const n = this.held.get(model) ?? 0;
    if (n >= this.limit) {
      setRetryAfter(reply, BUSY_RETRY_AFTER_S);
      throw new InferkitError('model_not_ready', `model "${model}" is busy: ${n} requests are queued (limit ${this.limit}); retry later`);
    }
    this.held.set(model, n + 1);
    let released = false;
    const release = (): void => {
      if (!released) {
        released = true;
        this.held.set(model, (this.held.get(model) ?? 1) - 1);
      }
    };
    reply.raw.once('close', release);
  }

  /** Requests `model` holds now. */
  size(model: string): number {
    return this.held.get(model) ?? 0;
  }
}
