import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { fixtureLoaders, forecastBody, http, isvc, nerFixtureDir, rawExchange } from './server-http.js';

let server: RunningServer;
const lines: string[] = [];

beforeAll(async () => {
  const dir = await nerFixtureDir();
  server = await serve([isvc('bert-v2', { modelName: 'bert2', v2: true }), isvc('fc', { modelName: 'chronos', args: ['--model_id=baseline/seasonal-naive'] })], {
    loaders: fixtureLoaders(dir),
    port: 0,
    limits: { requestTimeoutMs: 800, headersTimeoutMs: 800 },
    logRequests: true,
    log: (l) => lines.push(l),
  });
  await server.loaded();
});
afterAll(() => server?.close());

/** Writes `text` on a raw connection and resolves with everything the server sent until it closed. */
const raw = (text: string, ms = 3000): Promise<string> => rawExchange(server.port, text, ms);

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
const count = (metrics: string, status: number) => Number(new RegExp(`inferkit_requests_total\\{model="",service="[^"]*",namespace="[^"]*",route="rejected",status="${status}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);

describe('requests rejected before any route runs are counted and logged', () => {
  it('408, 431, 400 (malformed, bad percent-encoding) and 414 appear in the request metrics and the request log', async () => {
    const answers = [
      await raw(`GET /v2/models/${'a'.repeat(2000)}/ready HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
      await raw(`GET /v2 HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`),
      await raw('GARBAGE\r\n\r\n'),
      await raw('GET /v2/models/%E0%A4%A/ready HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
      await raw('GET /v2/health/live HTTP/1.1\r\nHost: localhost\r\nX-Slow: '),
    ];
    expect(answers.map(statusOf)).toEqual([414, 431, 400, 400, 408]);
    const metrics = (await http(server.url, '/metrics')).text;
    expect([414, 431, 400, 408].map((s) => count(metrics, s))).toEqual([1, 1, 2, 1]);
    const logged = lines.map((l) => JSON.parse(l) as { status?: number; path?: string }).filter((l) => [414, 431, 400, 408].includes(l.status ?? 0));
    expect(logged.map((l) => l.status).sort()).toEqual([400, 400, 408, 414, 431]);
    // A rejected URL is logged cut to 200 characters, never in full.
    expect(lines.every((l) => l.length < 1000)).toBe(true);
  });
});

describe('a request timeout on a routed request (stalled body)', () => {
  it('is counted under its route as 408, not as a client abort, and logged', async () => {
    const a = await raw('POST /v2/models/bert2/infer HTTP/1.1\r\nHost: localhost\r\nContent-Length: 500\r\n\r\n{"inputs":');
    expect(statusOf(a)).toBe(408);
    const metrics = (await http(server.url, '/metrics')).text;
    expect(metrics).toMatch(/inferkit_requests_total\{model="",service="[^"]*",namespace="[^"]*",route="\/v2\/models\/:name\/infer",status="408"\} 1\n/);
    expect(metrics).not.toMatch(/status="aborted"/);
    expect(metrics).toMatch(/inferkit_requests_in_flight\{route="\/v2\/models\/:name\/infer"\} 0\n/);
    expect(lines.some((l) => l.includes('"path":"/v2/models/bert2/infer","status":408'))).toBe(true);
  });
});

describe('error bodies do not echo unbounded input', () => {
  it('404 no route: the path is cut at 200 characters with an ellipsis', async () => {
    const a = await http(server.url, `/nope/${'x'.repeat(5000)}`);
    expect(a.status).toBe(404);
    const error = (a.json() as { error: string }).error;
    expect(error).toMatch(/^no route GET \/nope\/x+…$/);
    expect(error.length).toBeLessThan(260);
  });

  it('forecast: a long model name or frequency is cut in the message and the echoed model', async () => {
    const long = 'm'.repeat(5000);
    const a = await http(server.url, '/v1/timeseries/forecast', { body: forecastBody(long) });
    expect(a.status).toBe(404);
    expect(a.text.length).toBeLessThan(1000);
    expect(a.text).toContain('…');
    const body = forecastBody('chronos');
    const b = await http(server.url, '/v1/timeseries/forecast', { body: { ...body, inputs: [{ ...body.inputs[0], frequency: 'Q'.repeat(5000) }] } });
    expect(b.status).toBe(400);
    expect(b.text.length).toBeLessThan(1500);
  });
});
