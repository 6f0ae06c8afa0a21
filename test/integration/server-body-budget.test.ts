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
    limits: { maxBodyBytesInFlight: 10_000, requestTimeoutMs: 1500 },
  });
  await server.loaded();
});
afterAll(() => server?.close());

/** A raw socket collecting what the server sends; `closed` resolves when the server ends it. */
function rawSocket(): { socket: Socket; text: () => string; closed: Promise<void> } {
  const socket = connect(server.port, '127.0.0.1');
  let text = '';
  socket.on('error', () => undefined);
  socket.on('data', (c: Buffer) => (text += c.toString('utf8')));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return { socket, text: () => text, closed };
}

const stalledHead = (length: number) => `POST /v2/models/bert2/infer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{"inputs":`;

describe('bodies being received, all requests together', () => {
  it('beyond the budget: 503 with Retry-After at once, before reading the body; small requests still pass', async () => {
    const stalled = [rawSocket(), rawSocket()];
    stalled[0].socket.write(stalledHead(6000));
    await new Promise((r) => setTimeout(r, 50));
    stalled[1].socket.write(stalledHead(6000));
    await expect.poll(() => stalled[1].text(), { timeout: 1000 }).toMatch(/^HTTP\/1\.1 503 /);
    expect(stalled[1].text()).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(stalled[1].text()).toMatch(/"error":"the server is receiving too many request bodies at once \(6000 bytes more would pass the limit of 10000\); retry shortly"/);
    await stalled[1].closed;
    expect((await http(server.url, '/v2/models/bert2/infer', { body: v2('paris') })).status).toBe(200);
    await stalled[0].closed;
    expect(stalled[0].text()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('counts chunked bodies as they arrive, and frees the budget when requests end', async () => {
    const big = JSON.stringify(v2('x'.repeat(4000)));
    const chunked = rawSocket();
    chunked.socket.write('POST /v2/models/bert2/infer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    chunked.socket.write(`${(7000).toString(16)}\r\n${' '.repeat(7000)}\r\n`);
    await new Promise((r) => setTimeout(r, 100));
    const refused = await http(server.url, '/v2/models/bert2/infer', { body: big });
    expect(refused.status).toBe(503);
    chunked.socket.destroy();
    await chunked.closed;
    await expect.poll(async () => (await http(server.url, '/v2/models/bert2/infer', { body: big })).status).toBe(200);
  });

  it('a single body larger than the budget still passes when nothing else is being received', async () => {
    const huge = JSON.stringify(v2('y'.repeat(12_000)));
    expect((await http(server.url, '/v2/models/bert2/infer', { body: huge })).status).toBe(200);
  });
});
