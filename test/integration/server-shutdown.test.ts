import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { serve } from '../../src/server/serve.js';
import { fixtureLoaders, isvc, nerFixtureDir, v2 } from './server-http.js';

/** A keep-alive client socket that records its answers and how it ended (clean FIN or reset). */
interface Conn {
  socket: Socket;
  text: () => string;
  /** Resolves with 'end' (server closed cleanly) or the error code (e.g. ECONNRESET). */
  ended: Promise<string>;
}

function open(port: number): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('utf8')));
    const ended = new Promise<string>((r) => {
      socket.once('end', () => r('end'));
      socket.once('error', (e: NodeJS.ErrnoException) => r(e.code ?? 'error'));
    });
    socket.once('connect', () => resolve({ socket, text: () => text, ended }));
    socket.once('error', reject);
  });
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`;
const post = (path: string, body: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('graceful shutdown', () => {
  it('lets in-flight requests finish with Connection: close and closes idle keep-alive connections cleanly, without waiting for their timeout', async () => {
    const dir = await nerFixtureDir();
    // A long batch wait keeps the inference request in flight while close() starts; a long
    // keep-alive timeout shows close() does not wait for idle connections to time out.
    const server = await serve([isvc('bert-v2', { modelName: 'bert2', v2: true })], {
      loaders: fixtureLoaders(dir),
      port: 0,
      maxWaitMs: 800,
      maxBatchSize: 64,
      waitWhenIdle: true,
      limits: { keepAliveTimeoutMs: 60_000 },
    });
    await server.loaded();
    const idle = await Promise.all(Array.from({ length: 16 }, () => open(server.port)));
    for (const c of idle) {
      c.socket.write(get('/v2/health/live'));
    }
    await until(() => idle.every((c) => c.text().includes('"live":true')), 5000);
    expect(idle.every((c) => /connection: keep-alive/i.test(c.text()))).toBe(true);

    const busy = await Promise.all(Array.from({ length: 3 }, () => open(server.port)));
    for (const c of busy) {
      c.socket.write(post('/v2/models/bert2/infer', JSON.stringify(v2('paris is nice'))));
    }
    await new Promise((r) => setTimeout(r, 150));
    const started = Date.now();
    await server.close();
    const took = Date.now() - started;

    for (const c of busy) {
      expect(await c.ended).toBe('end');
      expect(c.text()).toMatch(/^HTTP\/1\.1 200 /);
      expect(c.text()).toMatch(/\r\nconnection: close\r\n/i);
    }
    const endings = await Promise.all(idle.map((c) => c.ended));
    expect(endings).toEqual(idle.map(() => 'end'));
    expect(took).toBeLessThan(10_000);
  }, 30_000);

  it('a request completed after close() began gets 503 in the contract form with Connection: close', async () => {
    const dir = await nerFixtureDir();
    const server = await serve([isvc('bert-v2', { modelName: 'bert2', v2: true })], { loaders: fixtureLoaders(dir), port: 0 });
    await server.loaded();
    const late = await open(server.port);
    late.socket.write('GET /v2/health/ready HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await new Promise((r) => setTimeout(r, 100));
    const closed = server.close();
    await new Promise((r) => setTimeout(r, 50));
    late.socket.write('\r\n');
    await closed;
    expect(await late.ended).toBe('end');
    expect(late.text()).toMatch(/^HTTP\/1\.1 503 /);
    expect(late.text()).toMatch(/\r\nconnection: close\r\n/i);
    expect(late.text()).toMatch(/\r\nretry-after: 5\r\n/i);
    expect(JSON.parse(late.text().slice(late.text().indexOf('\r\n\r\n') + 4))).toEqual({ error: 'the server is shutting down; retry with another replica or after it restarts' });
  }, 30_000);

  it('cuts a stalled upload at the shutdown grace instead of waiting for it', async () => {
    const dir = await nerFixtureDir();
    const server = await serve([isvc('bert-v2', { modelName: 'bert2', v2: true })], {
      loaders: fixtureLoaders(dir),
      port: 0,
      limits: { requestTimeoutMs: 60_000, shutdownTimeoutMs: 500 },
    });
    await server.loaded();
    const stalled = await open(server.port);
    stalled.socket.write('POST /v2/models/bert2/infer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"inputs":');
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(['end', 'ECONNRESET']).toContain(await stalled.ended);
  }, 30_000);
});
