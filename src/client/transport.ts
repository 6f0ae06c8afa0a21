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
export const nodeHttpTransport: Transport = (req) =>
  new Promise<TransportResponse>((resolve, reject) => {
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
    const r = send(url, { method: req.method, headers });
    const onAbort = (): void => {
      r.destroy();
      reject(req.signal.reason);
    };
    req.signal.addEventListener('abort', onAbort, { once: true });
    const done = (): void => req.signal.removeEventListener('abort', onAbort);
    r.on('error', (e) => {
      done();
      reject(e);
    });
    r.on('response', (res) => {
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

/** Wraps a fetch-like function as a transport (the `Host` header is then up to that fetch). */
export function fetchTransport(fetchFn: FetchLike): Transport {
  return async (req) => {
    const res = await fetchFn(req.url, { method: req.method, headers: req.headers, body: req.body, signal: req.signal });
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
