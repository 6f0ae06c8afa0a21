import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastResponseSchema } from '../../src/contract/forecast.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { fixtureLoaders, forecastBody, http, isvc, nerFixtureDir, v1, v2, type HttpOptions } from './server-http.js';

let server: RunningServer;
let good: { v1: unknown; v2: unknown; fc: unknown };

beforeAll(async () => {
  const dir = await nerFixtureDir();
  server = await serve(
    [isvc('bert'), isvc('bert-v2', { modelName: 'bert2', v2: true }), isvc('fc', { modelName: 'chronos', args: ['--model_id=baseline/seasonal-naive'] })],
    { loaders: fixtureLoaders(dir), port: 0, bodyLimit: 64 * 1024 },
  );
  await server.loaded();
  good = {
    v1: (await http(server.url, '/v1/models/bert:predict', { body: v1('paris is nice') })).json(),
    v2: (await http(server.url, '/v2/models/bert2/infer', { body: { id: 'x', ...v2('paris is nice') } })).json(),
    fc: (await http(server.url, '/v1/timeseries/forecast', { body: forecastBody('chronos') })).json(),
  };
});
afterAll(() => server?.close());

/** The server still answers a valid request exactly as before. */
async function stillCorrect(): Promise<void> {
  const a = await http(server.url, '/v1/models/bert:predict', { body: v1('paris is nice') });
  expect([a.status, a.json()]).toEqual([200, good.v1]);
  const b = await http(server.url, '/v2/models/bert2/infer', { body: { id: 'x', ...v2('paris is nice') } });
  expect([b.status, b.json()]).toEqual([200, good.v2]);
}

const V1_CASES: Array<[string, HttpOptions, RegExp]> = [
  ['invalid JSON', { body: '{"instances": [' }, /not valid JSON/],
  ['text/plain body that is not JSON', { body: 'hello', headers: { 'content-type': 'text/plain' } }, /not valid JSON \(content-type text\/plain\)/],
  ['form-encoded body', { body: 'instances=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, /not valid JSON/],
  ['empty content type, JSON body: read as JSON (issue 28)', { body: '{}', headers: { 'content-type': '' } }, /instances: Invalid input: expected array/],
  ['odd content type, JSON body: read as JSON', { body: '{}', headers: { 'content-type': 'application/json; charset' } }, /instances: Invalid input: expected array/],
  ['no body', { method: 'POST' }, /expected object/i],
  ['missing instances', { body: {} }, /instances/],
  ['instances not a list', { body: { instances: 'paris' } }, /instances/],
  ['a number instance', { body: { instances: ['a', 3] } }, /instances\[1\]: expected a string/],
  ['empty instances', { body: { instances: [] } }, /instances: expected at least one instance/],
  ['JSON array body', { body: [1, 2] }, /expected object/i],
  ['JSON null body', { body: 'null' }, /expected object/i],
];

const V2_CASES: Array<[string, unknown, RegExp]> = [
  ['missing inputs', {}, /inputs/],
  ['no input tensors', { inputs: [] }, /inputs: expected at least one input tensor/],
  ['shape/data mismatch', { inputs: [{ name: 't', shape: [3], datatype: 'BYTES', data: ['a'] }] }, /inputs\[0\]\.data: has 1 elements but shape \[3\] needs 3/],
  ['wrong datatype', { inputs: [{ name: 't', shape: [1], datatype: 'FP32', data: [1] }] }, /inputs\[0\]\.datatype: expected BYTES/],
  ['unknown datatype', { inputs: [{ name: 't', shape: [1], datatype: 'TEXT', data: ['a'] }] }, /datatype/],
  ['number in BYTES', { inputs: [{ name: 't', shape: [1], datatype: 'BYTES', data: [1] }] }, /inputs\[0\]\.data\[0\]/],
  ['two input tensors', { inputs: [v2('a').inputs[0], v2('b').inputs[0]] }, /exactly one input tensor/],
  ['2-d shape', { inputs: [{ name: 't', shape: [1, 1], datatype: 'BYTES', data: ['a'] }] }, /inputs\[0\]\.shape/],
  ['unknown requested output', { ...v2('a'), outputs: [{ name: 'logits' }] }, /outputs\[0\]\.name/],
  ['no texts', { inputs: [{ name: 't', shape: [0], datatype: 'BYTES', data: [] }] }, /inputs\[0\]\.data: expected at least one text/],
  ['negative shape', { inputs: [{ name: 't', shape: [-1], datatype: 'BYTES', data: [] }] }, /shape/],
];

describe('serve: every client mistake is a 400 {"error"} naming the problem', () => {
  it.each(V1_CASES)('V1: %s', async (_label, options, message) => {
    const r = await http(server.url, '/v1/models/bert:predict', { method: 'POST', ...options });
    expect(r.status).toBe(400);
    expect(r.json()).toEqual({ error: expect.stringMatching(message) });
  });

  it.each(V2_CASES)('V2: %s', async (_label, body, message) => {
    const r = await http(server.url, '/v2/models/bert2/infer', { body });
    expect(r.status).toBe(400);
    expect(r.json()).toEqual({ error: expect.stringMatching(message) });
  });

  it('forecast: 400 with a ForecastResponse whose error names the field', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{ ...forecastBody('chronos'), options: { horizon: 0 } }, 'invalid_horizon', 'options.horizon'],
      [{ ...forecastBody('chronos'), options: { horizon: 2, quantiles: [1.5] } }, 'invalid_quantile', 'options.quantiles[0]'],
      ['{"model": "chronos", ', 'invalid_request', ''],
      [{ model: 'chronos', inputs: [{ type: 'univariate_time_series', name: 'a', series: [1, 'x'], frequency: 'D' }], options: { horizon: 2 } }, 'invalid_series', 'inputs[0].series[1]'],
      [{ model: 'chronos', inputs: [{ type: 'univariate_time_series', name: 'a', series: [1, 2], frequency: 'fortnight' }], options: { horizon: 2 } }, 'invalid_frequency', 'inputs[0].frequency'],
    ];
    for (const [body, code, param] of cases) {
      const r = await http(server.url, '/v1/timeseries/forecast', { body });
      expect(r.status).toBe(400);
      const parsed = ForecastResponseSchema.parse(r.json());
      expect(parsed).toMatchObject({ status: 'error', outputs: [], error: { code, type: 'invalid_request_error' } });
      if (param) {
        expect(parsed.error?.param).toBe(param);
      }
    }
    await stillCorrect();
  });

  it('keeps serving correctly after the whole matrix', stillCorrect);
});

describe('serve: fuzzed bodies and headers', () => {
  const paths = ['/v1/models/bert:predict', '/v2/models/bert2/infer', '/v1/timeseries/forecast', '/v1/models/bert', '/v2/models/bert2'];
  const json = fc.jsonValue({ maxDepth: 3 });
  const instances = fc.record({ instances: fc.array(fc.oneof(fc.string({ maxLength: 40 }), fc.integer(), fc.constant(null)), { maxLength: 4 }) });
  const tensors = fc.record({
    inputs: fc.array(fc.record({ name: fc.string({ maxLength: 5 }), shape: fc.array(fc.integer({ min: -2, max: 4 }), { maxLength: 3 }), datatype: fc.constantFrom('BYTES', 'INT64', 'FP32', 'x'), data: fc.array(fc.oneof(fc.string({ maxLength: 20 }), fc.integer()), { maxLength: 4 }) }), { maxLength: 2 }),
  });
  const body = fc.oneof(json.map((v) => JSON.stringify(v)), instances.map((v) => JSON.stringify(v)), tensors.map((v) => JSON.stringify(v)), fc.string({ maxLength: 60 }));
  const header = fc.record(
    {
      'content-type': fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-8', 'multipart/form-data; boundary=x', 'application/octet-stream'),
      host: fc.constantFrom('bert.default.example.com', 'bert-v2.default.example.com', 'who.default.example.com', 'localhost', 'BERT.DEFAULT.EXAMPLE.COM:80'),
      'x-extra': fc.stringMatching(/^[a-zA-Z0-9 ;=,-]{0,20}$/),
    },
    { requiredKeys: [] },
  );

  it('never answers 5xx, never crashes, and answers the next valid request correctly', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.constantFrom('POST', 'GET', 'PUT'), body, header, async (path, method, b, headers) => {
        const r = await http(server.url, path, { method, body: method === 'GET' ? undefined : b, headers });
        expect(r.status).toBeGreaterThanOrEqual(200);
        expect(r.status).toBeLessThan(500);
        expect(() => r.json()).not.toThrow();
      }),
      { numRuns: 200, seed: 42 },
    );
    await stillCorrect();
  });
});
