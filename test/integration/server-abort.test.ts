import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { forecastBody, heldTokenLoaders, http, isvc, nerFixtureDir, until, v2 } from './server-http.js';

let server: RunningServer;
let held: ReturnType<typeof heldTokenLoaders>;

beforeAll(async () => {
  const dir = await nerFixtureDir();
  held = heldTokenLoaders(dir);
  server = await serve([isvc('bert-v2', { modelName: 'bert2', v2: true }), isvc('fc', { modelName: 'chronos', args: ['--model_id=baseline/seasonal-naive'] })], {
    loaders: held.loaders,
    port: 0,
    // Forecasts: the first call of an idle model waits, so the aborted ones are still queued.
    maxWaitMs: 400,
    maxBatchSize: 64,
    waitWhenIdle: true,
    // One session in this thread (one run at a time): the token model is busy while its first run is held.
    inference: { threads: 1, workerThreads: false },
  });
  await server.loaded();
});
afterAll(() => {
  held?.release();
  return server?.close();
});

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
    held.gate.held = true;
    const busy = http(server.url, '/v2/models/bert2/infer', { body: v2('berlin') });
    await until(() => held.runs.length === 1);
    await Promise.all(Array.from({ length: 5 }, () => abortedRequest('/v2/models/bert2/infer', v2('paris is nice'), 100)));
    await expect
      .poll(async () => (await http(server.url, '/metrics')).text)
      .toMatch(/inferkit_requests_total\{model="bert2",service="[^"]*",namespace="[^"]*",route="\/v2\/models\/:name\/infer",status="aborted"\} 5/);
    held.release();
    expect((await busy).status).toBe(200);
    const ok = await http(server.url, '/v2/models/bert2/infer', { body: v2('paris') });
    expect(ok.status).toBe(200);
    // The aborted requests' texts never ran: one run for the busy request, one for the good one.
    expect(held.runs).toEqual([1, 1]);
    await expect
      .poll(async () => (await http(server.url, '/metrics')).text)
      .toMatch(/inferkit_requests_total\{model="bert2",service="[^"]*",namespace="[^"]*",route="\/v2\/models\/:name\/infer",status="aborted"\} 5/);
    const metrics = (await http(server.url, '/metrics')).text;
    expect(metrics).toMatch(/inferkit_requests_in_flight\{route="\/v2\/models\/:name\/infer"\} 0/);
    expect(metrics).toMatch(/inferkit_batch_size_count\{model="bert2"\} 2\b/);
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

describe('a heavy request whose client leaves while its texts run', () => {
  it('its texts not yet running leave the queue; the next request is answered and the gauges return to 0', async () => {
    const dir = await nerFixtureDir();
    const heavyHeld = heldTokenLoaders(dir);
    const heavy = await serve([isvc('bert-v2', { modelName: 'bert2', v2: true })], {
      port: 0,
      // 20,000 texts: far past the default per-request caps, which are not what this test is about.
      limits: { maxTextsPerRequest: 20_000, maxTokensPerRequest: 1_000_000 },
      inference: { threads: 1, workerThreads: false },
      loaders: heavyHeld.loaders,
    });
    try {
      await heavy.loaded();
      heavyHeld.gate.held = true;
      const texts = Array.from({ length: 20_000 }, (_, i) => `paris is nice number ${i}`);
      const body = JSON.stringify(v2(...texts));
      const socket = connect(heavy.port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(`POST /v2/models/bert2/infer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      await until(() => heavyHeld.runs.length === 1);
      socket.destroy();
      await expect
        .poll(async () => (await http(heavy.url, '/metrics')).text)
        .toMatch(/inferkit_requests_total\{model="bert2",service="[^"]*",namespace="[^"]*",route="\/v2\/models\/:name\/infer",status="aborted"\} 1\b/);
      heavyHeld.release();
      const ok = await http(heavy.url, '/v2/models/bert2/infer', { body: v2('paris') });
      expect(ok.status).toBe(200);
      // The run that had started finished; the other 19,992 texts never ran.
      expect(heavyHeld.runs).toEqual([8, 1]);
      const metrics = (await http(heavy.url, '/metrics')).text;
      expect(metrics).toMatch(/inferkit_requests_in_flight\{route="\/v2\/models\/:name\/infer"\} 0/);
    } finally {
      heavyHeld.release();
      await heavy.close();
    }
  }, 60_000);
});
