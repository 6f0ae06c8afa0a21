import { connect, type Socket } from 'node:net';
import { percentile } from './stats.js';

/**
 * One keep-alive HTTP/1.1 connection that sends pre-serialized requests one at a time and reads only
 * what it must of each answer (status line, `Content-Length` or chunked framing without trailers), as wrk does: the load
 * generator shares the machine with the server, so it should cost as little CPU per request as it can.
 */
export class LeanConnection {
  private readonly socket: Socket;
  private buffered: Buffer = Buffer.alloc(0);
  private pending: { resolve: (status: number) => void; reject: (e: Error) => void } | undefined;
  private readonly ready: Promise<void>;
  /** The peer (or `close()`) ended the connection: later sends fail instead of waiting forever. */
  private closed = false;

  constructor(port: number) {
    this.socket = connect({ host: '127.0.0.1', port, noDelay: true });
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('error', reject);
    });
    this.ready.catch(() => undefined); // `send` reports it
    this.socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      this.parse();
    });
    const fail = (e: Error) => {
      const p = this.pending;
      this.pending = undefined;
      p?.reject(e);
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => {
      this.closed = true;
      fail(new Error('connection closed before the answer ended'));
    });
  }

  /** Sends `request` (a whole HTTP/1.1 request) and resolves with the answer's status once it has all arrived. */
  async send(request: Buffer): Promise<number> {
    await this.ready;
    if (this.pending !== undefined) {
      throw new Error('one request at a time per connection');
    }
    if (this.closed) {
      throw new Error('connection closed (the server closed it after its last answer)');
    }
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(request);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private parse(): void {
    const end = this.buffered.indexOf('\r\n\r\n');
    if (end < 0 || this.pending === undefined) {
      return;
    }
    const head = this.buffered.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    let total: number;
    if (length !== null) {
      total = end + 4 + Number(length[1]);
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const last = this.buffered.indexOf('\r\n0\r\n\r\n', end);
      if (last < 0) {
        return;
      }
      total = last + 7;
    } else if (status === 204 || status === 304) {
      total = end + 4;
    } else {
      // A body that runs until the connection closes cannot be told from the next answer: not for a load test.
      const p = this.pending;
      this.pending = undefined;
      p.reject(new Error(`answer ${status} without Content-Length or chunked framing`));
      this.socket.destroy();
      return;
    }
    if (this.buffered.length < total) {
      return;
    }
    this.buffered = this.buffered.subarray(total);
    const p = this.pending;
    this.pending = undefined;
    p.resolve(status);
  }
}

/** The bytes of a keep-alive POST of a JSON `body` (or a GET without one) to `path` on 127.0.0.1. */
export function requestBytes(port: number, path: string, body?: string): Buffer {
  const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(body, 'utf8');
  const head =
    body === undefined
      ? `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`
      : `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
}

/** What {@link runLoad} saw. */
export interface LoadResult {
  requests: number;
  seconds: number;
  latenciesMs: number[];
  /** Process CPU time (main + worker threads, user + system) over wall time: cores used. */
  coresUsed: number;
  /** `/v2/health/live` latencies sampled every ~10 ms during the load (when probed). */
  liveMs: number[];
}

/**
 * `concurrency` clients POST `bodies` (round robin) back to back for `ms`, after a short warm-up;
 * every answer must be 200. With `probeLive`, a separate connection asks `/v2/health/live` meanwhile.
 */
export async function runLoad(
  port: number,
  path: string,
  bodies: readonly string[],
  concurrency: number,
  ms: number,
  probeLive = false,
  hooks: { onStart?: () => void; onEnd?: () => void } = {},
): Promise<LoadResult> {
  const requests = bodies.map((b) => requestBytes(port, path, b));
  const connections = Array.from({ length: concurrency }, () => new LeanConnection(port));
  const live = probeLive ? new LeanConnection(port) : undefined;
  const latenciesMs: number[] = [];
  const liveMs: number[] = [];
  let loading = true;
  const client = async (id: number, until: number, record: boolean) => {
    for (let n = 0; n < 1_000_000 && loading; n++) {
      if (performance.now() >= until && n > 0) {
        return;
      }
      const t0 = performance.now();
      const status = await connections[id].send(requests[(id + n) % requests.length]);
      if (status !== 200) {
        throw new Error(`${path} answered ${status}`);
      }
      if (record) {
        latenciesMs.push(performance.now() - t0);
      }
    }
  };
  let probe: Promise<void> = Promise.resolve();
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, 4) }, (_, i) => client(i, 0, false)));
    const liveRequest = requestBytes(port, '/v2/health/live');
    probe = live
      ? (async () => {
          for (let i = 0; i < 100_000 && loading; i++) {
            const t = performance.now();
            const status = await live.send(liveRequest);
            if (status !== 200) {
              throw new Error(`/v2/health/live answered ${status}`);
            }
            liveMs.push(performance.now() - t);
            await new Promise((r) => setTimeout(r, 10));
          }
        })()
      : Promise.resolve();
    hooks.onStart?.();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, (_, i) => client(i, t0 + ms, true)));
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    hooks.onEnd?.();
    loading = false;
    await probe;
    return { requests: latenciesMs.length, seconds: wall / 1000, latenciesMs, coresUsed: (cpu.user + cpu.system) / 1000 / wall, liveMs };
  } finally {
    // On a failure too: the other clients stop, and no connection is left open on the server.
    loading = false;
    for (const c of connections) {
      c.close();
    }
    live?.close();
    await probe.catch(() => undefined);
  }
}

/** p99 of a list, NaN when empty. */
export function p99(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : percentile(values, 99);
}
