import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remote, type RemoteModel } from '../../src/client/remote.js';
import type { ForecastRequestInput } from '../../src/contract/forecast.js';
import type { V1PredictRequest } from '../../src/contract/v1.js';
import type { V2InferRequest } from '../../src/contract/v2.js';
import { HttpError } from '../../src/errors.js';
import { loadExchanges, type Exchange } from './exchanges.js';

// A stub that answers with recorded KServe bodies, byte for byte as KServe sent them, and — like
// uvicorn after a 500 — drops the keep-alive connection: the next request on it gets no answer.
const exchanges = loadExchanges();
const byId = new Map(exchanges.map((e) => [e.id, e]));
let next: Exchange | undefined;
const dead = new WeakSet<Socket>();
const stats = { received: 0, droppedUnanswered: 0 };
let server: Server;
let baseUrl = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      stats.received++;
      if (dead.has(req.socket)) {
        stats.droppedUnanswered++;
        req.socket.destroy();
        return;
      }
      const e = next;
      if (e === undefined) {
        res.writeHead(599).end();
        return;
      }
      const r = e.response;
      const text = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
      res.writeHead(r.status, r.headers['content-type'] ? { 'content-type': r.headers['content-type'] } : {});
      res.end(text);
      if (r.status >= 500) {
        dead.add(req.socket);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function client(name = 'bert'): RemoteModel {
  return remote({ baseUrl }, { modelName: name, retries: 0 });
}

/** Calls the client method that sends this exchange's request. */
function callFor(m: RemoteModel, e: Exchange): Promise<unknown> {
  const { method, path } = e.request;
  const body = e.request.body;
  if (path === '/v1/timeseries/forecast') {
    return m.forecast(body as ForecastRequestInput);
  }
  if (path.endsWith(':predict') && method === 'POST') {
    return m.predictV1(body as V1PredictRequest);
  }
  if (path.endsWith('/infer') && method === 'POST') {
    return m.inferV2(body as V2InferRequest);
  }
  const calls: Record<string, () => Promise<unknown>> = {
    '/v2': () => m.serverMetadata(),
    '/v2/health/live': () => m.live(),
    '/v1/models': () => m.listModels(),
    '/v2/models/bert': () => m.metadata(),
    '/v2/models/bert/ready': () => m.ready(),
  };
  const call = calls[path];
  if (call === undefined) {
    throw new Error(`no client method for ${method} ${path}`);
  }
  return call();
}

const is200 = (e: Exchange): boolean => e.response.status === 200;
const clientCalls = exchanges.filter(
  (e) => typeof e.request.body !== 'string' && !e.request.path.endsWith(':explain') && (e.request.method === 'POST' || ['/v2', '/v2/health/live', '/v1/models', '/v2/models/bert', '/v2/models/bert/ready'].includes(e.request.path)),
);

describe('remote() against recorded KServe answers', () => {
  it('covers every kind of recorded exchange a client method sends', () => {
    expect(new Set(clientCalls.map((e) => e.kind))).toEqual(new Set(['v1_predict', 'v2_infer', 'v1_runtime_arg', 'v2_runtime_arg', 'route', 'bad_input', 'forecast', 'forecast_error']));
    expect(clientCalls.length).toBeGreaterThan(100);
  });

  it.each(clientCalls.filter(is200).map((e) => [e.id, e] as const))('parses %s', async (_id, e) => {
    next = e;
    const m = client(e.request.path.startsWith('/v2/models/nope') ? 'nope' : 'bert');
    const out = await callFor(m, e);
    const body = e.response.body as Record<string, unknown>;
    if (e.request.path === '/v2/models/bert') {
      expect(out).toEqual({ name: 'bert', versions: null, platform: '', inputs: [], outputs: [] });
    } else if (e.request.path === '/v2/health/live' || e.request.path === '/v2/models/bert/ready') {
      expect(out).toBe(true);
    } else if (e.request.path === '/v1/models') {
      expect(out).toEqual(['bert']);
    } else {
      // Lenient in, and nothing lost: the parsed answer is the recorded body (frequency "M" stays "M").
      expect(out).toEqual(body);
    }
  });

  it.each(clientCalls.filter((e) => !is200(e)).map((e) => [e.id, e] as const))('throws HttpError with the server message for %s', async (_id, e) => {
    next = e;
    const m = client(e.request.path.includes('/nope') || (e.request.body as { model?: string } | null)?.model === 'nope' ? 'nope' : 'bert');
    const err = await callFor(m, e).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(e.response.status);
    expect((err as HttpError).body).toEqual(e.response.body);
    const b = e.response.body as { error?: unknown };
    if (typeof b.error === 'string') {
      expect((err as Error).message).toContain(b.error);
    }
  });

  it('loses no request after a 500 closes the keep-alive connection (POST and GET)', async () => {
    const m = remote({ baseUrl }, { modelName: 'bert' });
    for (const [failing, valid] of [
      ['v1-nospec-empty', 'v1-lc-b1'],
      ['bad-v2-inputs-empty-list', 'v2-lc-b1'],
      ['bad-v1-missing-instances', 'route-GET_v2_models_bert'],
      ['fc-err-no-quantiles', 'fc-example'],
    ] as const) {
      const bad = byId.get(failing) as Exchange;
      const good = byId.get(valid) as Exchange;
      next = bad;
      await expect(callFor(m, bad)).rejects.toMatchObject({ status: 500 });
      const before = { ...stats };
      next = good;
      await expect(callFor(m, good)).resolves.toBeDefined();
      // The first send went out on the dead socket and got no answer; the re-send got one.
      expect(stats.droppedUnanswered - before.droppedUnanswered).toBe(1);
      expect(stats.received - before.received).toBe(2);
    }
  });

  it('with a fetch transport too: a valid call after a 500 and a closed connection succeeds', async () => {
    const m = remote({ baseUrl }, { modelName: 'bert', fetch: globalThis.fetch, retries: 0 });
    next = byId.get('v1-lc-b1');
    await m.predictV1({ instances: ['Hi'] });
    next = byId.get('v1-nospec-empty');
    await expect(m.predictV1({ instances: [''] })).rejects.toMatchObject({ status: 500 });
    next = byId.get('v1-lc-b1');
    await expect(m.predictV1({ instances: ['Hi'] })).resolves.toEqual({ predictions: [[[5, 0, 0]]] });
  });

  it('sends a request once when it was answered, even with a 500', async () => {
    const m = remote({ baseUrl }, { modelName: 'bert' });
    next = byId.get('v1-lc-b1');
    await m.predictV1({ instances: ['Hi'] });
    const before = stats.received;
    next = byId.get('v1-nospec-empty');
    await expect(m.predictV1({ instances: [''] })).rejects.toBeInstanceOf(HttpError);
    expect(stats.received - before).toBe(1);
  });
});
