import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { fixtureLoaders, http, isvc, nerFixtureDir, v2 } from './server-http.js';

let server: RunningServer;

beforeAll(async () => {
  const dir = await nerFixtureDir();
  server = await serve([isvc('bert-v2', { modelName: 'bert2', v2: true })], {
    loaders: fixtureLoaders(dir),
    port: 0,
    maxWaitMs: 150,
    limits: { requestTimeoutMs: 600, headersTimeoutMs: 400, maxConnections: 12, maxQueuePerModel: 1 },
  });
  await server.loaded();
});
afterAll(() => server?.close());

/** A raw socket to the server that resolves `closed` with the ms it stayed open. */
function rawSocket(): { socket: Socket; closed: Promise<number> } {
  const started = Date.now();
  const socket = connect(server.port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)));
  return { socket, closed };
}

const HEAD = 'POST /v2/models/bert2/infer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n';

describe('request timeouts', () => {
  it('cuts a slow POST (a byte every 100 ms) and a stalled upload while a normal client keeps getting answers', async () => {
    const slow = rawSocket();
    slow.socket.write(HEAD);
    const drip = setInterval(() => slow.socket.writable && slow.socket.write('['), 100);
    const stalled = rawSocket();
    stalled.socket.write(`${HEAD}{"inputs": [`);
    const answers: number[] = [];
    for (let i = 0; i < 10; i++) {
      answers.push((await http(server.url, '/v2/models/bert2/infer', { body: v2('paris') })).status);
    }
    const [slowMs, stalledMs] = await Promise.all([slow.closed, stalled.closed]);
    clearInterval(drip);
    expect(answers.filter((s) => s === 200).length).toBeGreaterThanOrEqual(9);
    expect(slowMs).toBeLessThan(3000);
    expect(stalledMs).toBeLessThan(3000);
  });

  it('cuts a client that never finishes its headers', async () => {
    const s = rawSocket();
    s.socket.write('GET /v2/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(await s.closed).toBeLessThan(3000);
  });
});

describe('connection cap', () => {
  it('closes connections beyond maxConnections at once; normal clients get through once idle ones time out', async () => {
    const flood = Array.from({ length: 30 }, () => rawSocket());
    const times = await Promise.all(flood.map((f) => f.closed));
    expect(times.filter((t) => t < 300).length).toBeGreaterThanOrEqual(15);
    const a = await http(server.url, '/v2/health/live');
    expect(a.status).toBe(200);
  });
});

describe('per-model queue limit', () => {
  it('answers 503 with Retry-After beyond the limit, and serves again afterwards', async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => http(server.url, '/v2/models/bert2/infer', { body: v2('paris') })));
    const busy = answers.filter((a) => a.status === 503);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy[0]?.headers['retry-after']).toBe('1');
    expect((busy[0]?.json() as { error: string }).error).toMatch(/busy: 1 requests are queued \(limit 1\)/);
    expect((await http(server.url, '/v2/models/bert2/infer', { body: v2('paris') })).status).toBe(200);
  });
});
