import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { remote } from '../../src/client/remote.js';
import { HttpError, InferkitError, isInferkitError } from '../../src/errors.js';

// A bare node:http server stands in where inferkit's own server cannot misbehave on purpose:
// responses that break the contract, stalls, scripted 503 sequences.
type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
const servers: Server[] = [];

async function start(handler: Handler): Promise<{ baseUrl: string; seen: Array<{ headers: IncomingMessage['headers']; url: string; body: string }> }> {
  const seen: Array<{ headers: IncomingMessage['headers']; url: string; body: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ headers: req.headers, url: req.url ?? '', body });
      handler(req, body, res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

describe('remote (transport behaviour)', () => {
  it('sends the Host header, JSON content type and caller headers', async () => {
    const { baseUrl, seen } = await start((_req, _b, res) => json(res, 200, { predictions: [[[0, 1, 0]]] }));
    const m = remote({ baseUrl }, { host: 'ner.default.example.com', modelName: 'ner', headers: { 'X-Trace': 't1' } });
    await expect(m.predictV1({ instances: ['Hi'] })).resolves.toEqual({ predictions: [[[0, 1, 0]]] });
    expect(seen[0].url).toBe('/v1/models/ner:predict');
    expect(seen[0].headers.host).toBe('ner.default.example.com');
    expect(seen[0].headers['content-type']).toBe('application/json');
    expect(seen[0].headers['x-trace']).toBe('t1');
    expect(JSON.parse(seen[0].body)).toEqual({ instances: ['Hi'] });
  });

  it('rejects a response that breaks the contract, naming the field', async () => {
    const { baseUrl } = await start((_req, _b, res) => json(res, 200, { model_name: 'ner', id: 'x', outputs: [{ name: 'o', shape: [2], datatype: 'INT64', data: [1] }] }));
    const err = await remote({ baseUrl }, { modelName: 'ner' })
      .inferV2({ inputs: [{ name: 't', shape: [1], datatype: 'BYTES', data: ['a'] }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InferkitError);
    expect((err as InferkitError).code).toBe('http_error');
    expect((err as InferkitError).param).toBe('outputs[0].data');
    expect((err as Error).message).toMatch(/unexpected response from POST .*\/v2\/models\/ner\/infer: outputs\[0\]\.data: has 1 elements but shape \[2\] needs 2/);
  });

  it('retries a 503 with backoff, then succeeds', async () => {
    let n = 0;
    const { baseUrl, seen } = await start((_req, _b, res) =>
      ++n < 3 ? json(res, 503, { error: 'Model ner is not ready' }) : json(res, 200, { predictions: [[[1]]] }),
    );
    const t0 = performance.now();
    const out = await remote({ baseUrl }, { modelName: 'ner', retries: 3, retryDelayMs: 20 }).predictV1({ instances: ['a'] });
    expect(out.predictions).toEqual([[[1]]]);
    expect(seen).toHaveLength(3);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(10 + 20); // ≥ half of 20 ms + half of 40 ms
  });

  it('gives up after the retries with an HttpError carrying the server message', async () => {
    const { baseUrl, seen } = await start((_req, _b, res) => json(res, 503, { error: 'Model ner is not ready' }, { 'retry-after': '0' }));
    const err = await remote({ baseUrl }, { modelName: 'ner', retries: 2 }).predictV1({ instances: ['a'] }).catch((e: unknown) => e);
    expect(seen).toHaveLength(3);
    expect(err).toBeInstanceOf(HttpError);
    const h = err as HttpError;
    expect([h.status, h.code, h.url, h.body]).toEqual([503, 'model_not_ready', `${baseUrl}/v1/models/ner:predict`, { error: 'Model ner is not ready' }]);
    expect(h.message).toBe(`POST ${baseUrl}/v1/models/ner:predict → 503: Model ner is not ready`);
  });

  it('times out a stalled call with code "timeout"', async () => {
    const { baseUrl } = await start(() => undefined); // never answers
    const t0 = performance.now();
    const err = await remote({ baseUrl }, { modelName: 'ner', timeoutMs: 150 }).predictV1({ instances: ['a'] }).catch((e: unknown) => e);
    expect(isInferkitError(err) && err.code).toBe('timeout');
    expect((err as Error).message).toMatch(/timed out after 150 ms/);
    expect(performance.now() - t0).toBeLessThan(10_000); // far below the 30 s default: the 150 ms limit fired
  });

  it('reports a stalled liveness probe as not live rather than throwing', async () => {
    const { baseUrl } = await start(() => undefined); // never answers
    await expect(remote({ baseUrl }, { timeoutMs: 150 }).live()).resolves.toBe(false);
  });

  it('refuses a custom fetch together with a Host header, which fetch cannot send', () => {
    const err = (() => {
      try {
        remote({ baseUrl: 'http://127.0.0.1:9' }, { host: 'bert.default.example.com', fetch: globalThis.fetch });
        return undefined;
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InferkitError);
    expect(err).toMatchObject({ code: 'config', param: 'fetch' });
    expect((err as Error).message).toContain('Host header "bert.default.example.com"');
  });

  it('cancels through an AbortSignal, rejecting with its reason', async () => {
    const { baseUrl } = await start(() => undefined);
    const ac = new AbortController();
    const pending = remote({ baseUrl }, { modelName: 'ner' }).predictV1({ instances: ['a'] }, { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('cancels a pending retry wait', async () => {
    const { baseUrl } = await start((_req, _b, res) => json(res, 503, { error: 'loading' }, { 'retry-after': '5' }));
    const ac = new AbortController();
    const t0 = performance.now();
    const pending = remote({ baseUrl }, { modelName: 'ner', retries: 5, signal: ac.signal }).predictV1({ instances: ['a'] });
    setTimeout(() => ac.abort(), 100);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - t0).toBeLessThan(4500); // rejected before the server's 5 s Retry-After ran out
  });

  it('retries a refused connection, then reports a network error', async () => {
    const { baseUrl } = await start(() => undefined);
    for (const s of servers.splice(0)) {
      await new Promise((r) => s.close(r)); // the port is now closed
    }
    const err = await remote({ baseUrl }, { modelName: 'ner', retries: 1, retryDelayMs: 10 }).predictV1({ instances: ['a'] }).catch((e: unknown) => e);
    expect(isInferkitError(err) && err.code).toBe('network');
    expect((err as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('keeps a forecast error body whole and reports its message', async () => {
    const body = {
      id: 'r1', created_at: 1, status: 'error', model: 'chronos', outputs: [],
      error: { code: 'invalid_horizon', message: 'options.horizon: expected a positive horizon', param: 'options.horizon', type: 'invalid_request_error' },
    };
    const { baseUrl } = await start((_req, _b, res) => json(res, 400, body));
    const err = await remote({ baseUrl }).forecast({ model: 'chronos', inputs: [], options: { horizon: 0 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).body).toEqual(body);
    expect((err as HttpError).code).toBe('invalid_request');
    expect((err as Error).message).toMatch(/→ 400: options\.horizon: expected a positive horizon$/);
  });

  it('never stores the Authorization header', async () => {
    const { baseUrl, seen } = await start((_req, _b, res) => json(res, 404, { error: 'Model nope not found' }));
    const m = remote({ baseUrl }, { modelName: 'nope', headers: { Authorization: 'Bearer hf_SECRET123' } });
    const err = await m.predictV1({ instances: ['a'] }).catch((e: unknown) => e);
    expect(seen[0].headers.authorization).toBe('Bearer hf_SECRET123');
    expect((err as HttpError).status).toBe(404);
    for (const text of [inspect(err, { depth: 10 }), JSON.stringify(err), inspect(m, { depth: 10 }), JSON.stringify(m)]) {
      expect(text).not.toContain('hf_SECRET123');
    }
  });
});
