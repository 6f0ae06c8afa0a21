import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastResponseSchema } from '../../src/contract/forecast.js';
import { V2InferRequestSchema, V2InferResponseSchema } from '../../src/contract/v2.js';
import { loadTokenClassifier } from '../../src/runtime/token-classification/load-token-classifier.js';
import type { TokenClassifier } from '../../src/runtime/token-classification/token-classifier.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { fixtureLoaders, forecastBody, http, isvc, nerFixtureDir, v1, v2 } from './server-http.js';

const TEXT = 'my name is wolfgang and i live in berlin';
let server: RunningServer;
let local: TokenClassifier;
const V1_HOST = 'bert.default.example.com';
const V2_HOST = 'bert-v2.default.example.com';
const FC_HOST = 'fc.forecasting.example.com';

beforeAll(async () => {
  const dir = await nerFixtureDir();
  local = await loadTokenClassifier(dir, { modelName: 'bert' });
  const manifests = [
    isvc('bert'),
    isvc('bert-v2', { modelName: 'bert2', v2: true }),
    isvc('fc', { namespace: 'forecasting', modelName: 'chronos', args: ['--model_id=baseline/seasonal-naive'] }),
  ];
  server = await serve(manifests, { loaders: fixtureLoaders(dir), port: 0, bodyLimit: 4096 });
  const states = await server.loaded();
  expect(states.map((s) => [s.name, s.task, s.ready])).toEqual([
    ['bert', 'token_classification', true],
    ['bert2', 'token_classification', true],
    ['chronos', 'time_series_forecast', true],
  ]);
});

afterAll(async () => {
  await server?.close();
  await local?.dispose();
});

describe('serve: inference routes', () => {
  it('V1 :predict answers what the in-kernel model answers', async () => {
    const r = await http(server.url, '/v1/models/bert:predict', { body: v1(TEXT, 'paris'), headers: { host: V1_HOST } });
    expect(r.status).toBe(200);
    expect(r.json()).toEqual(await local.predictV1({ instances: [TEXT, 'paris'] }));
  });

  it('V2 /infer answers INT64 [N,1,T] like the in-kernel model, echoing the request id', async () => {
    const body = { id: 'req-1', ...v2(TEXT, 'paris') };
    const r = await http(server.url, '/v2/models/bert2/infer', { body, headers: { host: V2_HOST } });
    expect(r.status).toBe(200);
    const got = V2InferResponseSchema.parse(r.json());
    const want = await local.inferV2(V2InferRequestSchema.parse(body));
    expect({ ...got, model_name: 'bert' }).toEqual(want);
    expect(got.model_name).toBe('bert2');
    expect(got.outputs[0].shape[0]).toBe(2);
  });

  it('forecast route picks the model by the body\'s "model"', async () => {
    const r = await http(server.url, '/v1/timeseries/forecast', { body: forecastBody('chronos'), headers: { host: FC_HOST } });
    expect(r.status).toBe(200);
    const body = ForecastResponseSchema.parse(r.json());
    expect(body.status).toBe('completed');
    expect(body.outputs[0].content[0].mean_forecast).toHaveLength(3);
    expect(Object.keys(body.outputs[0].content[0].quantiles ?? {})).toEqual(['0.1', '0.9']);
  });

  it('serves V1 and V2 for every token-classification model, whatever protocolVersion (as KServe does)', async () => {
    const a = await http(server.url, '/v1/models/bert2:predict', { body: v1(TEXT) });
    expect([a.status, a.json()]).toEqual([200, await local.predictV1({ instances: [TEXT] })]);
    const b = await http(server.url, '/v2/models/bert/infer', { body: { id: 'x', ...v2(TEXT) } });
    expect(b.status).toBe(200);
    expect(b.json()).toEqual({ ...(await local.inferV2(V2InferRequestSchema.parse({ id: 'x', ...v2(TEXT) }))), model_name: 'bert' });
    const alias = await http(server.url, '/v1/models/bert:predict', { body: { inputs: [TEXT] } });
    expect([alias.status, alias.json()]).toEqual([200, a.json()]);
    const c = await http(server.url, '/v1/models/chronos:predict', { body: v1('x') });
    expect([c.status, c.json()]).toEqual([404, { error: expect.stringMatching(/forecasting model/) }]);
    const d = await http(server.url, '/v1/timeseries/forecast', { body: forecastBody('bert') });
    expect(d.status).toBe(404);
    expect(ForecastResponseSchema.parse(d.json()).error).toMatchObject({ code: 'model_not_found', param: 'model' });
  });
});

describe('serve: health, metadata, listing, metrics, OpenAPI', () => {
  it('answers the KServe V1/V2 info routes', async () => {
    const get = async (path: string, host?: string) => {
      const r = await http(server.url, path, host ? { headers: { host } } : {});
      return [r.status, r.json()];
    };
    expect(await get('/')).toEqual([200, { status: 'alive' }]);
    expect(await get('/v1/models')).toEqual([200, { models: ['bert', 'bert2', 'chronos'] }]);
    expect(await get('/v1/models', V2_HOST)).toEqual([200, { models: ['bert2'] }]);
    expect(await get('/v1/models/bert')).toEqual([200, { name: 'bert', ready: true }]);
    expect(await get('/v2')).toEqual([200, { name: 'inferkit', version: expect.any(String), extensions: [] }]);
    expect(await get('/v2/health/live')).toEqual([200, { live: true }]);
    expect(await get('/v2/health/ready')).toEqual([200, { ready: true }]);
    expect(await get('/v2/models/bert2/ready')).toEqual([200, { name: 'bert2', ready: true }]);
    const [status, meta] = await get('/v2/models/bert2');
    expect(status).toBe(200);
    expect(meta).toEqual(await local.metadata().then((m) => ({ ...m, name: 'bert2' })));
    expect(meta).toMatchObject({ inputs: [{ name: 'text', datatype: 'BYTES' }], outputs: [{ name: 'output-0', datatype: 'INT64', shape: [-1, 1, -1] }] });
    expect(await get('/v2/models/nope')).toEqual([404, { error: expect.stringContaining('"nope"') }]);
    expect(await get('/v2/models')).toEqual([200, { models: ['bert', 'bert2', 'chronos'] }]);
    expect(await get('/v2/models', V1_HOST)).toEqual([200, { models: ['bert'] }]);
    expect(await get('/v2/models/bert/versions/1/ready')).toEqual([501, { error: 'Model versioning not supported yet.' }]);
    expect(await get('/v2/models/bert/versions/1')).toEqual([501, { error: 'Model versioning not supported yet.' }]);
    expect((await get('/v2/models/nope/versions/1/ready'))[0]).toBe(404);
    const infer = await http(server.url, '/v2/models/bert/versions/1/infer', { body: v2('x') });
    expect(infer.status).toBe(501);
    const explain = await http(server.url, '/v1/models/bert:explain', { body: v1('x') });
    expect([explain.status, explain.json()]).toEqual([501, { error: expect.stringMatching(/explain/) }]);
    const slash = await http(server.url, '/v2/');
    expect([slash.status, slash.headers.location]).toEqual([307, '/v2']);
  });

  it('answers 404 on every KServe route for a Host under the domain that no service has', async () => {
    const host = { headers: { host: 'nope.default.example.com' } };
    for (const path of ['/', '/v1/models', '/v2', '/v2/models', '/v2/health/live', '/v2/health/ready', '/v2/models/bert', '/v2/models/bert/ready']) {
      const r = await http(server.url, path, host);
      expect([path, r.status, r.json()]).toEqual([path, 404, { error: expect.stringContaining('nope.default.example.com') }]);
    }
    expect((await http(server.url, '/v1/models/bert:predict', { ...host, body: v1('x') })).status).toBe(404);
    expect((await http(server.url, '/metrics', host)).status).toBe(200);
  });

  it('lists services with a KServe status (Ready condition, url, revision)', async () => {
    const r = await http(server.url, '/inferkit/v1/services');
    const { services } = r.json() as { services: Array<{ name: string; manifest: { status: { url: string; conditions: Array<{ type: string; status: string }> } } }> };
    expect(services.map((s) => s.manifest.status.url)).toEqual([`http://${V1_HOST}`, `http://${V2_HOST}`, `http://${FC_HOST}`]);
    expect(services[0].manifest.status.conditions).toContainEqual(expect.objectContaining({ type: 'Ready', status: 'True' }));
    expect(server.models()[0].status.components?.predictor.latestReadyRevision).toBe('bert-predictor-00001');
  });

  it('counts requests by model, route and status in Prometheus format', async () => {
    await http(server.url, '/v1/models/bert:predict', { body: v1('paris') });
    const r = await http(server.url, '/metrics');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/text\/plain/);
    expect(r.text).toMatch(/inferkit_requests_total\{model="bert",service="[^"]*",namespace="[^"]*",route="\/v1\/models\/:name",status="200"\} \d+/);
    expect(r.text).toMatch(/inferkit_request_duration_seconds_bucket\{le="[^"]+",model="bert"/);
    expect(r.text).toMatch(/inferkit_batch_size_count\{model="bert"\} \d+/);
    expect(r.text).toMatch(/inferkit_requests_in_flight\{route="\/metrics"\} 1/);
    expect(r.text).toMatch(/inferkit_model_ready\{model="chronos"\} 1/);
  });

  it('serves an OpenAPI document generated from the zod contract', async () => {
    const doc = (await http(server.url, '/openapi.json')).json() as { openapi: string; paths: Record<string, unknown>; components: { schemas: Record<string, { required?: string[] }> } };
    expect(doc.openapi).toBe('3.0.3');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/models/{name}:predict', '/v2/models/{name}/infer', '/v1/timeseries/forecast']));
    expect(doc.components.schemas.V1PredictRequest.required).toEqual(['instances']);
    expect(doc.components.schemas.ForecastRequest.required).toEqual(['model', 'inputs', 'options']);
  });
});

describe('serve: status codes', () => {
  it('404 for unknown paths and models, 405 with Allow for wrong methods', async () => {
    expect((await http(server.url, '/nope')).status).toBe(404);
    expect((await http(server.url, '/v1/models/ghost:predict', { body: v1('x') })).json()).toEqual({ error: 'model "ghost" is not served here' });
    const a = await http(server.url, '/v1/timeseries/forecast');
    expect(a.status).toBe(405);
    expect(a.headers.allow).toBe('POST');
    expect(ForecastResponseSchema.parse(a.json()).status).toBe('error');
    const b = await http(server.url, '/v2/models/bert2/infer', { method: 'PUT', body: v2('x') });
    expect([b.status, b.headers.allow]).toEqual([405, 'POST']);
    expect((await http(server.url, '/v1/models/bert:predict')).status).toBe(405);
    expect((await http(server.url, '/v1/models/bert', { body: v1('x') })).status).toBe(405);
    expect((await http(server.url, '/v2/health/live', { method: 'DELETE' })).status).toBe(405);
  });

  it('413 over the body limit, as {"error"} or a forecast error body', async () => {
    const big = v1('x'.repeat(5000));
    const r = await http(server.url, '/v1/models/bert:predict', { body: big });
    expect([r.status, r.json()]).toEqual([413, { error: 'request body is larger than the limit of 4096 bytes' }]);
    const f = await http(server.url, '/v1/timeseries/forecast', { body: { ...forecastBody('chronos'), pad: 'x'.repeat(5000) } });
    expect(f.status).toBe(413);
    expect(ForecastResponseSchema.parse(f.json())).toMatchObject({ status: 'error', error: { type: 'invalid_request_error' } });
  });
});
