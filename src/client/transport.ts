import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** One HTTP exchange as the client's transports see it. */
export interface TransportRequest {
  /** HTTP method, upper case. */
  method: string;
  /** Absolute URL. */
  url: string;
  /** Headers to send, `host` included when the caller sets one. */
  headers: Record<string, string>;
  /** Body text (JSON), if any. */
  body?: string;
  /** Aborts the exchange (timeout or caller cancellation). */
  signal: AbortSignal;
}

/** What a transport hands back: the status, lower-case headers and the whole body text. */
export interface TransportResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** Sends one request; rejects on network failure or abort (with the signal's reason). */
export type Transport = (req: TransportRequest) => Promise<TransportResponse>;

/**
 * A fetch-like function (the global `fetch`, or a browser's). Note that fetch implementations,
 * Node's included, drop a `Host` header: use the default node:http transport for Host routing.
 */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<{ status: number; headers: { get(name: string): string | null }; text(): Promise<string> }>;

/** Largest response body accepted, in bytes. */
const MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

/**
 * The default transport: node:http / node:https, which (unlike fetch) sends the `Host` header
 * it is given — how a request reaches one model behind an ingress.
 */
export const nodeHttpTransport: Transport = async (req) => {
  try {
    return await sendOnce(req, false);
  } catch (e) {
    if (!isStaleConnection(e) || req.signal.aborted) {
      throw e;
    }
    // The pooled keep-alive socket was already closed by the server (uvicorn closes it after a
    // 500): no byte of an answer came, so the server never handled this request. Re-send it once
    // on a new connection, whatever the method.
    return sendOnce(req, true);
  }
};

/** Error codes of a connection that dies before any answer. */
const STALE_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** Marks an error as "sent on a reused keep-alive socket that was dead, before any response byte". */
interface StaleMark {
  staleConnection?: boolean;
}

function isStaleConnection(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as StaleMark).staleConnection === true;
}

function connectionDied(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof err.code === 'string' && STALE_CODES.has(err.code)) {
    return true;
  }
  if (typeof err.message === 'string' && /socket hang up|other side closed/i.test(err.message)) {
    return true;
  }
  return err.cause !== undefined && err.cause !== e && connectionDied(err.cause);
}

function sendOnce(req: TransportRequest, fresh: boolean): Promise<TransportResponse> {
  return new Promise<TransportResponse>((resolve, reject) => {
    if (req.signal.aborted) {
      reject(req.signal.reason);
      return;
    }
    const url = new URL(req.url);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers = { ...req.headers };
    if (req.body !== undefined) {
      headers['content-length'] = String(Buffer.byteLength(req.body));
    }
    const r = send(url, fresh ? { method: req.method, headers, agent: false } : { method: req.method, headers });
    let answered = false;
    const onAbort = (): void => {
      r.destroy();
      reject(req.signal.reason);
    };
    req.signal.addEventListener('abort', onAbort, { once: true });
    const done = (): void => req.signal.removeEventListener('abort', onAbort);
    r.on('error', (e) => {
      done();
      if (!answered && !fresh && r.reusedSocket && connectionDied(e)) {
        Object.assign(e, { staleConnection: true } satisfies StaleMark);
      }
      reject(e);
    });
    r.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_RESPONSE_BYTES) {
          r.destroy(new RangeError(`response body over ${MAX_RESPONSE_BYTES} bytes`));
          return;
        }
        chunks.push(c);
      });
      res.on('error', (e) => {
        done();
        reject(e);
      });
      res.on('end', () => {
        done();
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) {
          if (v !== undefined) {
            out[k] = Array.isArray(v) ? v.join(', ') : v;
          }
        }
        resolve({ status: res.statusCode ?? 0, headers: out, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    r.end(req.body);
  });
}

/** Wraps a fetch-like function as a transport (the `Host` header is then up to that fetch). */
export function fetchTransport(fetchFn: FetchLike): Transport {
  return async (req) => {
    const init = { method: req.method, headers: req.headers, body: req.body, signal: req.signal };
    let res;
    try {
      res = await fetchFn(req.url, init);
    } catch (e) {
      // fetch rejects before any response when its pooled connection was closed by the server
      // (undici: UND_ERR_SOCKET "other side closed"); the pool drops that socket, so one re-send
      // goes out on a new connection.
      if (req.signal.aborted || !connectionDied(e)) {
        throw e;
      }
      res = await fetchFn(req.url, init);
    }
    const text = await res.text();
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'retry-after']) {
      const v = res.headers.get(name);
      if (v !== null) {
        headers[name] = v;
      }
    }
    return { status: res.status, headers, text };
  };
}
