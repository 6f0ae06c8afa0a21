import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { InferkitError } from '../errors.js';
import { BUSY_RETRY_AFTER_S, setRetryAfter } from './retry-after.js';

/** Limits of {@link installConnectionGuard} (part of `ServerLimits`). */
export interface ConnectionLimits {
  /** Most open connections, the probe headroom aside. @default 1024 */
  maxConnections: number;
  /** Most open connections from one peer address. @default 256 */
  maxConnectionsPerPeer: number;
  /** A connection that has sent no byte after this long (ms) is closed. @default 2000 */
  firstByteTimeoutMs: number;
  /** Connections admitted beyond `maxConnections` when none can be evicted: health and readiness probes only. @default 64 */
  probeHeadroom: number;
}

/** Why the guard closed a connection (`inferkit_connections_closed_total{reason}`). */
export type ConnectionCloseReason = 'first_byte_timeout' | 'evicted' | 'peer_limit' | 'connection_limit';

/** The running guard. */
export interface ConnectionGuard {
  /** True for a connection admitted in the probe headroom: it may only reach health and readiness routes. */
  isProbeOnly(socket: Socket): boolean;
  /** Open connections the guard counts (headroom included). */
  open(): number;
  /** Ends (FIN, not reset) every connection not in a request: idle keep-alive ones and those that sent nothing; returns how many. */
  endIdle(): number;
}

interface Conn {
  peer: string;
  /** A read phase has passed since it opened: bytes it sent at once have been read (until then it is not evicted for sending none). */
  settled: boolean;
  probeOnly: boolean;
  /** A request is being answered. */
  busy: boolean;
  /** `bytesRead` when the last answer ended: unchanged means idle between requests. */
  bytesAtIdle: number;
}

/**
 * Admission of TCP connections, replacing Node's `server.maxConnections` (which refuses every new
 * connection once the cap is reached, however many of the open ones never sent a byte: 1,100 idle
 * sockets locked out every client). Here a connection costs a slot only while it is worth one:
 * - one that sends no byte within `firstByteTimeoutMs` is closed;
 * - at the cap (or at its peer's share) a new connection evicts the oldest one that is not in a
 *   request: first those that never sent a byte, then idle keep-alive ones (a clean FIN between
 *   requests, as the keep-alive timeout would send) — so a flood of idle sockets only evicts itself;
 * - last, one whose request headers are still incomplete (a slowloris dripping header bytes; a real
 *   client sends its headers at once) — a connection whose request has been read is never evicted;
 * - a peer's connections beyond `maxConnectionsPerPeer` evict that peer's own idle ones (loopback
 *   addresses have no share: every local process shares them);
 * - when no connection can be evicted, up to `probeHeadroom` more are admitted for health and
 *   readiness probes only (the routes refuse anything else with 503 and `Connection: close`; one
 *   that has not sent a whole request within `firstByteTimeoutMs` is closed); beyond it, refused.
 * `onClose` is told of every connection the guard closes.
 */
export function installConnectionGuard(server: Server, limits: ConnectionLimits, onClose: (reason: ConnectionCloseReason) => void = () => undefined): ConnectionGuard {
  const conns = new Map<Socket, Conn>();
  // Candidates for eviction, oldest first (entries are re-checked when taken).
  const fresh = new Set<Socket>();
  const idle = new Set<Socket>();
  const perPeer = new Map<string, number>();
  let probeOnly = 0;

  const close = (socket: Socket, reason: ConnectionCloseReason): void => {
    onClose(reason);
    socket.destroy();
  };
  const evictable = (socket: Socket, c: Conn): boolean => c.settled && !c.busy && socket.bytesRead === c.bytesAtIdle;
  // Headers still incomplete (a slowloris drips them; a client sends them at once): evicted after the
  // idle ones, oldest first, so a drip of header bytes cannot hold a slot a client needs.
  const partial = (_socket: Socket, c: Conn): boolean => c.settled && !c.busy;
  const evictFrom = (set: Set<Socket>, peer: string | undefined, pick: (s: Socket, c: Conn) => boolean): boolean => {
    for (const s of set) {
      const c = conns.get(s);
      if (c === undefined || c.busy || s.destroyed) {
        set.delete(s);
        continue;
      }
      if ((peer !== undefined && c.peer !== peer) || !pick(s, c)) {
        continue;
      }
      set.delete(s);
      close(s, 'evicted');
      return true;
    }
    return false;
  };
  const evict = (peer?: string): boolean =>
    evictFrom(fresh, peer, evictable) || evictFrom(idle, peer, evictable) || evictFrom(fresh, peer, partial) || evictFrom(idle, peer, partial);

  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? '';
    const ofPeer = perPeer.get(peer) ?? 0;
    const overShare = ofPeer >= limits.maxConnectionsPerPeer && !isLoopback(peer);
    const full: ConnectionCloseReason | undefined =
      overShare && !evict(peer) ? 'peer_limit' : conns.size - probeOnly >= limits.maxConnections && !evict() ? 'connection_limit' : undefined;
    const headroom = full !== undefined;
    if (full !== undefined) {
      if (probeOnly >= limits.probeHeadroom) {
        close(socket, full);
        return;
      }
      probeOnly++;
    }
    const conn: Conn = { peer, settled: false, probeOnly: headroom, busy: false, bytesAtIdle: 0 };
    conns.set(socket, conn);
    // Accepted in this poll phase; its first bytes are read in the next one, after which the second check phase runs.
    setImmediate(() => setImmediate(() => (conn.settled = true)));
    perPeer.set(peer, ofPeer + 1);
    fresh.add(socket);
    // A probe sends its whole request at once: in the headroom, one still without an answer by then is closed too.
    // Checked after the next poll phase (setImmediate): after an event-loop stall the timer fires
    // before the bytes already waiting in the kernel are read, and would close a client that did send.
    const timer = setTimeout(() => {
      setImmediate(() => {
        const c = conns.get(socket);
        if (!socket.destroyed && (socket.bytesRead === 0 || (c?.probeOnly === true && !c.busy))) {
          close(socket, 'first_byte_timeout');
        }
      });
    }, limits.firstByteTimeoutMs);
    timer.unref();
    socket.once('close', () => {
      clearTimeout(timer);
      const c = conns.get(socket);
      conns.delete(socket);
      fresh.delete(socket);
      idle.delete(socket);
      if (c?.probeOnly) {
        probeOnly--;
      }
      const n = (perPeer.get(peer) ?? 1) - 1;
      if (n > 0) {
        perPeer.set(peer, n);
      } else {
        perPeer.delete(peer);
      }
    });
  });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const c = conns.get(socket);
    if (c === undefined) {
      return;
    }
    c.busy = true;
    fresh.delete(socket);
    idle.delete(socket);
    res.once('close', () => {
      c.busy = false;
      c.bytesAtIdle = socket.bytesRead;
      if (!socket.destroyed) {
        idle.add(socket);
      }
    });
  });

  return {
    isProbeOnly: (socket) => conns.get(socket)?.probeOnly === true,
    open: () => conns.size,
    endIdle: () => {
      let ended = 0;
      for (const [socket, c] of conns) {
        if (evictable(socket, c) && !socket.destroyed) {
          socket.end();
          ended++;
        }
      }
      return ended;
    },
  };
}

/** Loopback peers are every local process at once (a sidecar, `kubectl port-forward`, the user): no per-peer share. */
function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** Liveness and readiness routes: the only ones a connection in the probe headroom may reach. */
export const PROBE_PATH = /^\/(?:|v2\/health\/(?:live|ready)|v2\/models\/[^/?]+\/ready|v1\/models\/[^/?:]+)(?:\?.*)?$/;

/**
 * On a connection admitted in the probe headroom, answers health and readiness routes (with
 * `Connection: close`, so the slot frees at once) and refuses the others: 503 with `Retry-After: 1`.
 */
export function installProbeHeadroom(app: FastifyInstance, guard: ConnectionGuard): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!guard.isProbeOnly(request.raw.socket)) {
      return;
    }
    reply.header('connection', 'close');
    if (request.method !== 'GET' || !PROBE_PATH.test(request.url)) {
      setRetryAfter(reply, BUSY_RETRY_AFTER_S);
      throw new InferkitError('model_not_ready', 'the server is at its connection limit; only health and readiness probes are answered on this connection; retry shortly');
    }
  });
}
