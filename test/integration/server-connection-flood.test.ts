import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { fixtureLoaders, http, isvc, nerFixtureDir, v2 } from './server-http.js';

// The attack of issue 28 (N1) scaled to a CI box: a cap of 64 connections against 80 reconnecting
// idle sockets, 150 held ones, 80 reconnecting ones that drip their headers, and 66 stalled uploads.
let server: RunningServer;
const CAP = 64;

beforeAll(async () => {
  const dir = await nerFixtureDir();
  server = await serve([isvc('bert-v2', { modelName: 'bert2', v2: true })], {
    loaders: fixtureLoaders(dir),
    port: 0,
    limits: { maxConnections: CAP, maxConnectionsPerPeer: CAP, firstByteTimeoutMs: 300, probeHeadroom: 8, headersTimeoutMs: 20_000, requestTimeoutMs: 20_000 },
  });
  await server.loaded();
});
afterAll(() => server?.close());

/** `count` sockets that send nothing; with `reconnect`, each closed one is opened again until `stop()`. */
function flood(count: number, reconnect: boolean, first = ''): { stop: () => void; opened: () => number } {
  let running = true;
  let opened = 0;
  const sockets = new Set<Socket>();
  const open = (): void => {
    const s = connect(server.port, '127.0.0.1');
    opened++;
    sockets.add(s);
    s.on('error', () => undefined);
    if (first) {
      s.on('connect', () => s.write(first));
    }
    s.on('close', () => {
      sockets.delete(s);
      if (running && reconnect) {
        setImmediate(open);
      }
    });
  };
  for (let i = 0; i < count; i++) {
    open();
  }
  return {
    opened: () => opened,
    stop: () => {
      running = false;
      for (const s of sockets) {
        s.destroy();
      }
    },
  };
}

/** `tries` requests, each on a new connection, one after the other; the statuses (0 = connection failed). */
async function client(tries: number, send: () => Promise<{ status: number }>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < tries; i++) {
    statuses.push(await send().then((a) => a.status, () => 0));
  }
  return statuses;
}

const infer = () => http(server.url, '/v2/models/bert2/infer', { body: v2('paris') });
const live = () => http(server.url, '/v2/health/live');
const ready = () => http(server.url, '/v2/models/bert2/ready');
const served = (statuses: number[]) => statuses.filter((s) => s === 200).length / statuses.length;

async function metric(reason: string): Promise<number> {
  const text = (await http(server.url, '/metrics')).text;
  return Number(new RegExp(`inferkit_connections_closed_total\\{reason="${reason}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
}

describe('connection guard (issue 28 N1)', () => {
  it('serves a normal client and every probe while more idle sockets than the cap keep reconnecting', async () => {
    const attack = flood(CAP + 16, true);
    await new Promise((r) => setTimeout(r, 100));
    const [inferences, probes] = await Promise.all([client(30, infer), client(30, async () => (await live()).status === 200 ? ready() : live())]);
    attack.stop();
    expect(attack.opened()).toBeGreaterThan(CAP + 16);
    expect(served(inferences)).toBeGreaterThanOrEqual(0.95);
    expect(served(probes)).toBe(1);
    expect(await metric('evicted')).toBeGreaterThan(0);
  });

  it('drops sockets that never send a byte after the first-byte timeout, so held sockets do not fill the cap', async () => {
    const attack = flood(150, false);
    await new Promise((r) => setTimeout(r, 100));
    const inferences = await client(20, infer);
    await new Promise((r) => setTimeout(r, 500));
    const before = await metric('first_byte_timeout');
    attack.stop();
    expect(served(inferences)).toBeGreaterThanOrEqual(0.95);
    expect(before).toBeGreaterThan(0);
  });

  it('evicts connections still sending their headers (a reconnecting slowloris) when a client needs the slot', async () => {
    const drip = flood(CAP + 16, true, 'GET /v2/health/live HTTP/1.1\r\nHost: 127');
    await new Promise((r) => setTimeout(r, 400));
    const inferences = await client(20, infer);
    drip.stop();
    expect(served(inferences)).toBeGreaterThanOrEqual(0.95);
  });

  it('keeps probes answerable when every slot is taken by a request in progress; other routes get 503 there', async () => {
    const stalled = flood(CAP + 2, false, 'POST /v2/models/bert2/infer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{"inputs"');
    await new Promise((r) => setTimeout(r, 300));
    const probes = await client(10, live);
    const readiness = await client(5, ready);
    const refused = await infer().catch(() => undefined);
    stalled.stop();
    expect(served(probes)).toBe(1);
    expect(served(readiness)).toBe(1);
    expect(refused?.status).toBe(503);
    expect(refused?.headers.connection).toBe('close');
    expect(refused?.text).toMatch(/connection limit/);
  });
});
