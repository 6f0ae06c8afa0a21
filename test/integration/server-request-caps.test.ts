import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { fixtureLoaders, forecastBody, http, isvc, nerFixtureDir, rawExchange, v1, v2 } from './server-http.js';

// Issue 28 N4, N5, N8 and the Content-Type note: per-request caps and the statuses of odd requests.
let server: RunningServer;

beforeAll(async () => {
  const dir = await nerFixtureDir();
  const forecast = isvc('fc', { modelName: 'fc', args: ['--model_id=seasonal-naive'] });
  server = await serve([isvc('bert', { v2: true }), forecast], {
    loaders: fixtureLoaders(dir),
    port: 0,
    bodyLimit: 100_000,
    limits: { maxTextsPerRequest: 8, maxTokensPerRequest: 100 },
  });
  await server.loaded();
});
afterAll(() => server?.close());

const errorOf = (a: { json: () => unknown }) => (a.json() as { error: string }).error;

describe('per-request caps (issue 28 N4)', () => {
  it('more texts than maxTextsPerRequest is a 400 naming the cap, on V1 and V2; at the cap it is answered', async () => {
    const nine = Array.from({ length: 9 }, () => 'paris');
    const a = await http(server.url, '/v1/models/bert:predict', { body: v1(...nine) });
    const b = await http(server.url, '/v2/models/bert/infer', { body: v2(...nine) });
    expect([a.status, b.status]).toEqual([400, 400]);
    expect(errorOf(a)).toBe('instances: 9 texts in one request; the limit is 8 (maxTextsPerRequest, inferkit serve --max-texts-per-request): send them in several requests');
    expect(errorOf(b)).toMatch(/^inputs\[0\]\.data: 9 texts in one request; the limit is 8/);
    expect((await http(server.url, '/v2/models/bert/infer', { body: v2(...nine.slice(1)) })).status).toBe(200);
  });

  it('more tokens than maxTokensPerRequest (each text counted as its length + 2) is a 400 naming the cap', async () => {
    const long = 'x'.repeat(60);
    const a = await http(server.url, '/v2/models/bert/infer', { body: v2(long, long) });
    expect(a.status).toBe(400);
    expect(errorOf(a)).toMatch(/^inputs\[0\]\.data: up to 124 tokens in one request; the limit is 100 \(maxTokensPerRequest/);
    expect((await http(server.url, '/v2/models/bert/infer', { body: v2(long) })).status).toBe(200);
  });
});

describe('odd requests get the status that says what is wrong', () => {
  it('a declared Content-Length over the body limit is 413 at once, however large (N5)', async () => {
    for (const length of ['100001', '1000000000000']) {
      const answer = await rawExchange(server.port, `POST /v2/models/bert/infer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{`);
      expect(answer, length).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toContain('larger than the server limit of 100000 bytes');
    }
  });

  it('valid JSON is read whatever the Content-Type: none, empty or garbage (as the README says)', async () => {
    const body = JSON.stringify(v2('paris'));
    for (const type of [undefined, '', 'garbage', 'text/plain', 'application/x-www-form-urlencoded', ';;;']) {
      const head = type === undefined ? '' : `Content-Type: ${type}\r\n`;
      const answer = await rawExchange(server.port, `POST /v2/models/bert/infer HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${head}Content-Length: ${body.length}\r\n\r\n${body}`);
      expect(answer.slice(0, 200), String(type)).toMatch(/^HTTP\/1\.1 200 /);
    }
  });

  it('a forecast reaching past year 9999 is a 400, not a 200 with status "error" (N8)', async () => {
    const body = forecastBody('fc', 5);
    body.inputs[0].start_timestamp = '9999-12-25T00:00:00Z';
    const a = await http(server.url, '/v1/timeseries/forecast', { body });
    expect(a.status).toBe(400);
    expect(a.text).toMatch(/9999/);
  });
});
