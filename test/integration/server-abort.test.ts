import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { deferred, fixtureLoaders, forecastBody, http, isvc, nerFixtureDir, v2 } from './server-http.js';

let server: RunningServer;

beforeAll(async () => {
  const dir = await nerFixtureDir();
  server = await serve([isvc('bert-v2', { modelName: 'bert2', v2: true }), isvc('fc', { modelName: 'chronos', args: ['--model_id=baseline/seasonal-naive'] })], {
    loaders: fixtureLoaders(dir),
    port: 0,
    maxWaitMs: 400,
    maxBatchSize: 64,
    waitWhenIdle: true,
  });
  await server.loaded();
});
afterAll(() => server?.close());

/** Sends a whole POST, then drops the connection after `ms`, before the batch runs. */
async function abortedRequest(path: string, json: unknown, ms: number): Promise<void> {
  const body = JSON.stringify(json);
  const socket = connect(server.port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  await new Promise((r) => setTimeout(r, ms));
  socket.destroy();
}

describe('client disconnects', () => {
  it('drop their queued work, are counted as aborted, and the in-flight gauge returns to 0', async () => {
    await Promise.all(Array.from({ length: 5 }, () => abortedRequest('/v2/models/bert2/infer', v2('paris is nice'), 100)));
    const ok = await http(server.url, '/v2/models/bert2/infer', { body: v2('paris') });
    expect(ok.status).toBe(200);
    await expect
      .poll(async () => (await http(server.url, '/metrics')).text)
      .toMatch(/inferkit_requests_total\{model="bert2",service="[^"]*",namespace="[^"]*",route="\/v2\/models\/:name\/infer",status="aborted"\} 5/);
    const metrics = (await http(server.url, '/metrics')).text;
    expect(metrics).toMatch(/inferkit_requests_in_flight\{route="\/v2\/models\/:name\/infer"\} 0/);
    expect(metrics).toMatch(/inferkit_batch_size_count\{model="bert2"\} 1\b/);
  });

  it('on the forecast route too: aborted forecasts never reach the model', async () => {
    await Promise.all(Array.from({ length: 5 }, () => abortedRequest('/v1/timeseries/forecast', forecastBody('chronos'), 100)));
    const ok = await http(server.url, '/v1/timeseries/forecast', { body: forecastBody('chronos') });
    expect(ok.status).toBe(200);
    await expect
      .poll(async () => (await http(server.url, '/metrics')).text)
      .toMatch(/inferkit_requests_total\{model="chronos",service="[^"]*",namespace="[^"]*",route="\/v1\/timeseries\/forecast",status="aborted"\} 5/);
    const metrics = (await http(server.url, '/metrics')).text;
    expect(metrics).toMatch(/inferkit_requests_in_flight\{route="\/v1\/timeseries\/forecast"\} 0/);
    // Only the good request's series reached the model: one call of one series.
    expect(metrics).toMatch(/inferkit_batch_size_count\{model="chronos"\} 1\b/);
    expect(metrics).toMatch(/inferkit_batch_size_sum\{model="chronos"\} 1\b/);
  });
});

describe('a heavy request whose client leaves while its model call runs', () => {
  it('stops the call between chunks; the next request is answered and the gauges return to 0', async () => {
    const dir = await nerFixtureDir();
    const started = deferred();
    const outcomes: string[] = [];
    const fixtures = fixtureLoaders(dir);
    const heavy = await serve([isvc('bert-v2', { modelName: 'bert2', v2: true })], {
      port: 0,
      maxWaitMs: 5,
      maxBatchSize: 8,
      // 20,000 texts: far past the default per-request caps, which are not what this test is about.
      limits: { maxTextsPerRequest: 20_000, maxTokensPerRequest: 1_000_000 },
      loaders: {
        token_classification: async (c) => {
          const model = await (fixtures.token_classification as NonNullable<typeof fixtures.token_classification>)(c);
          if (model.task !== 'token_classification' || model.classIds === undefined) {
            throw new Error('fixture has no classIds');
          }
          const classIds = model.classIds;
          return {
            ...model,
            classIds: async (texts, options) => {
              started.resolve();
              try {
                const out = await classIds(texts, options);
                outcomes.push(`done ${texts.length}`);
                return out;
              } catch (e) {
                outcomes.push(`stopped ${texts.length}: ${(e as Error).message}`);
                throw e;
              }
            },
          };
        },
      },
    });
    try {
      await heavy.loaded();
      const texts = Array.from({ length: 20_000 }, (_, i) => `paris is nice number ${i}`);
      const body = JSON.stringify(v2(...texts));
      const socket = connect(heavy.port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(`POST /v2/models/bert2/infer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      await started.promise;
      socket.destroy();
      const ok = await http(heavy.url, '/v2/models/bert2/infer', { body: v2('paris') });
      expect(ok.status).toBe(200);
      // With the session in a worker the small call may overlap the heavy one and finish first;
      // the heavy one then stops at its next chunk (bounded wait).
      for (let i = 0; i < 200 && outcomes.length < 2; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect([...outcomes].sort()).toEqual(['done 1', expect.stringMatching(/^stopped 20000: Inference aborted/)]);
      const metrics = (await http(heavy.url, '/metrics')).text;
      expect(metrics).toMatch(/inferkit_requests_total\{model="bert2",service="[^"]*",namespace="[^"]*",route="\/v2\/models\/:name\/infer",status="aborted"\} 1\b/);
      expect(metrics).toMatch(/inferkit_requests_in_flight\{route="\/v2\/models\/:name\/infer"\} 0/);
    } finally {
      await heavy.close();
    }
  }, 60_000);
});
