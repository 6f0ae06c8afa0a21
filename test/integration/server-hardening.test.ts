import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { fixtureLoaders, forecastBody, http, isvc, nerFixtureDir, v2 } from './server-http.js';

let server: RunningServer;
const lines: string[] = [];
const LONG = 'm'.repeat(200);

beforeAll(async () => {
  const dir = await nerFixtureDir();
  server = await serve(
    [isvc('bert-v2', { modelName: 'bert2', v2: true }), isvc('fc', { modelName: 'chronos', args: ['--model_id=baseline/seasonal-naive'] }), isvc('long', { modelName: LONG })],
    { loaders: fixtureLoaders(dir), port: 0, logRequests: true, log: (l) => lines.push(l) },
  );
  await server.loaded();
});
afterAll(() => server?.close());

const nested = (depth: number): string => `${'['.repeat(depth)}"a"${']'.repeat(depth)}`;
const nestedObject = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('deeply nested JSON', () => {
  it('V2 data nested 6000 deep is a 400 naming the nesting, and the server still answers', async () => {
    const body = `{"inputs":[{"name":"t","shape":[1],"datatype":"BYTES","data":${nested(6000)}}]}`;
    const a = await http(server.url, '/v2/models/bert2/infer', { body });
    expect(a.status).toBe(400);
    expect((a.json() as { error: string }).error).toMatch(/nests arrays\/objects more than 64 levels deep/);
    const ok = await http(server.url, '/v2/models/bert2/infer', { body: v2('paris') });
    expect(ok.status).toBe(200);
  });

  it('forecast metadata nested 4000 deep is a 400 in the forecast error form', async () => {
    const good = forecastBody('chronos');
    const body = JSON.stringify(good).replace('"options":', `"metadata":${nestedObject(4000)},"options":`);
    const a = await http(server.url, '/v1/timeseries/forecast', { body });
    expect(a.status).toBe(400);
    expect(JSON.stringify(a.json())).toMatch(/levels deep/);
  });

  it('--log-requests writes one line per request, deep bodies included', async () => {
    lines.length = 0;
    const deep = `{"inputs":[{"name":"t","shape":[1],"datatype":"BYTES","data":${nested(64)}}]}`;
    await http(server.url, '/v2/models/bert2/infer', { body: deep });
    await http(server.url, '/v2/models/bert2/infer', { body: `{"x":${nestedObject(5000)}}` });
    await http(server.url, '/v2/models/bert2/infer', { body: v2('paris') });
    await expect.poll(() => lines.length).toBe(3);
    expect(lines.map((l) => (JSON.parse(l) as { status: number }).status)).toEqual([400, 400, 200]);
  });
});

describe('long model names', () => {
  it('a 200-character model name is reachable', async () => {
    const a = await http(server.url, `/v2/models/${LONG}/ready`);
    expect([a.status, a.json()]).toEqual([200, { name: LONG, ready: true }]);
    const b = await http(server.url, `/v1/models/${LONG}:predict`, { body: { instances: ['paris'] } });
    expect(b.status).toBe(200);
    const c = await http(server.url, `/v2/models/${LONG}/infer`, { body: v2('paris') });
    expect([c.status, (c.json() as { model_name: string }).model_name]).toEqual([200, LONG]);
  });
});

describe('error bodies', () => {
  it('an unknown service host does not list every served host', async () => {
    const a = await http(server.url, '/v2/models/bert2/infer', { body: v2('paris'), headers: { host: 'nope.default.example.com' } });
    expect(a.status).toBe(404);
    expect(a.text).not.toMatch(/example\.com,|bert-v2\.default/);
    expect((a.json() as { error: string }).error).toMatch(/no InferenceService is served at host "nope.default.example.com"/);
  });
});

describe('Content-Encoding', () => {
  it('a gzip body is refused with 415 in the error form', async () => {
    const a = await http(server.url, '/v2/models/bert2/infer', { body: v2('paris'), headers: { 'content-encoding': 'gzip' } });
    expect(a.status).toBe(415);
    expect((a.json() as { error: string }).error).toMatch(/Content-Encoding "gzip" is not supported/);
    const f = await http(server.url, '/v1/timeseries/forecast', { body: forecastBody('chronos'), headers: { 'content-encoding': 'br' } });
    expect(f.status).toBe(415);
    expect(JSON.stringify(f.json())).toMatch(/not supported/);
  });
});

describe('forecast values beyond float32', () => {
  it('are a 400 naming the value, not a 200 blamed on the server', async () => {
    const body = forecastBody('chronos');
    body.inputs[0].series = [1, 2, 1e39, 4, 5, 6, 7, 8];
    const a = await http(server.url, '/v1/timeseries/forecast', { body });
    expect(a.status).toBe(400);
    const answer = a.json() as { status: string; error: { param: string; message: string; type: string } };
    expect(answer.status).toBe('error');
    expect(answer.error.param).toBe('inputs[0].series[2]');
    expect(answer.error.message).toMatch(/float32 range/);
    expect(answer.error.type).not.toBe('server_error');
  });
});
