import type { z } from 'zod';
import { toValidationIssues } from '../contract/parse.js';
import { HttpError, InferkitError, ValidationError } from '../errors.js';
import { backoffDelay, sleep } from './backoff.js';
import { combineSignals } from './combine-signals.js';
import { errorMessageOf } from './error-message.js';
import { fetchTransport, nodeHttpTransport, type FetchLike, type Transport } from './transport.js';

/** How every call of a client reaches its server. */
export interface RequestOptions {
  /** Base URL such as `http://127.0.0.1:8080` (a path prefix is kept). */
  baseUrl: string;
  /** `Host` header to send (the service hostname behind an ingress); none when undefined. */
  host?: string;
  /** Extra headers sent on every call (e.g. `Authorization`; never stored in errors). */
  headers?: Record<string, string>;
  /** Time limit of one attempt, in milliseconds. @default 30000 */
  timeoutMs?: number;
  /** Retries after a 503 or a refused connection. @default 2 */
  retries?: number;
  /** First retry delay in milliseconds; doubles per retry, with jitter. @default 200 */
  retryDelayMs?: number;
  /** Upper bound of one retry delay (and of a `Retry-After`), in milliseconds. @default 5000 */
  maxRetryDelayMs?: number;
  /** A fetch-like to use instead of node:http (browsers); it may not send `Host`. */
  fetch?: FetchLike;
  /** Cancels every call of this client. */
  signal?: AbortSignal;
}

/** One call: method, path (relative to `baseUrl`), optional JSON body, response schema. */
export interface CallSpec<S extends z.ZodType> {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  schema: S;
  /** Cancels this call. */
  signal?: AbortSignal;
  /** Statuses whose body is parsed with `schema` instead of throwing (e.g. 503 on a ready route). */
  acceptStatus?: readonly number[];
  /** Retries for this call, overriding the client's. */
  retries?: number;
}

/** Sends calls with headers, timeouts, bounded retries, typed errors and parsed responses. */
export type Requester = <S extends z.ZodType>(spec: CallSpec<S>) => Promise<z.output<S>>;

/** Builds the one function through which every client call goes. */
export function createRequester(options: RequestOptions): Requester {
  if (options.fetch && options.host !== undefined) {
    throw new InferkitError(
      'config',
      `a custom fetch cannot send the Host header "${options.host}" (fetch forbids it), so the ingress could not route the call: omit \`fetch\` to use node:http, or give the service's own URL as baseUrl without a host`,
      { param: 'fetch' },
    );
  }
  const transport: Transport = options.fetch ? fetchTransport(options.fetch) : nodeHttpTransport;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const base = options.baseUrl.replace(/\/+$/, '');
  const fixed: Record<string, string> = { accept: 'application/json' };
  for (const [k, v] of Object.entries(options.headers ?? {})) {
    fixed[k.toLowerCase()] = v;
  }
  if (options.host !== undefined) {
    fixed.host = options.host;
  }

  return async <S extends z.ZodType>(spec: CallSpec<S>): Promise<z.output<S>> => {
    const url = base + spec.path;
    const what = `${spec.method} ${url}`;
    const headers = { ...fixed };
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
    }
    const retries = Math.max(0, spec.retries ?? options.retries ?? 2);
    const outer = [options.signal, spec.signal].filter((s): s is AbortSignal => s !== undefined);

    for (let attempt = 0; ; attempt++) {
      throwIfAborted(outer);
      const timeout = AbortSignal.timeout(timeoutMs);
      const combined = combineSignals([...outer, timeout]);
      let res;
      try {
        res = await transport({ method: spec.method, url, headers, body, signal: combined.signal });
      } catch (e) {
        throwIfAborted(outer);
        if (timeout.aborted) {
          throw new InferkitError('timeout', `${what} timed out after ${timeoutMs} ms`, { cause: e });
        }
        const refused = (e as { code?: unknown }).code === 'ECONNREFUSED';
        if (refused && attempt < retries) {
          await pause(backoffDelay(attempt, options), outer);
          continue;
        }
        throw new InferkitError('network', `${what} failed: ${(e as Error).message ?? String(e)}`, { cause: e });
      } finally {
        combined.dispose();
      }
      const parsed = parseBody(res.text);
      if (res.status >= 200 && res.status < 300) {
        return check(spec.schema, parsed, what);
      }
      if (spec.acceptStatus?.includes(res.status)) {
        return check(spec.schema, parsed, what);
      }
      if (res.status === 503 && attempt < retries) {
        await pause(backoffDelay(attempt, options, res.headers['retry-after']), outer);
        continue;
      }
      const message = errorMessageOf(parsed, res.text);
      throw new HttpError(res.status, url, parsed, `${what} → ${res.status}${message ? `: ${message}` : ''}`);
    }
  };
}

function parseBody(text: string): unknown {
  if (text.length === 0) {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function check<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) {
    return r.data;
  }
  const issues = toValidationIssues(r.error);
  const cause = new ValidationError(issues, { context: `response of ${what}` });
  const first = issues[0];
  const where = first?.path ? `${first.path}: ` : '';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  throw new InferkitError('http_error', `unexpected response from ${what}: ${where}${first?.message ?? 'invalid'}${more}`, {
    cause,
    param: first?.path,
  });
}

function throwIfAborted(signals: readonly AbortSignal[]): void {
  for (const s of signals) {
    if (s.aborted) {
      throw s.reason;
    }
  }
}

async function pause(ms: number, signals: readonly AbortSignal[]): Promise<void> {
  const combined = combineSignals(signals);
  try {
    await sleep(ms, combined.signal);
  } finally {
    combined.dispose();
  }
}
