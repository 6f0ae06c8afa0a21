import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { fixtureLoaders, http, isvc, nerFixtureDir, v2 } from './server-http.js';

let server: RunningServer;

beforeAll(async () => {
  const dir = await nerFixtureDir();
  server = await serve([isvc('bert-v2', { modelName: 'bert2', v2: true })], { loaders: fixtureLoaders(dir), port: 0, maxWaitMs: 400, maxBatchSize: 64, waitWhenIdle: true });
  await server.loaded();
});
afterAll(() => server?.close());

/** Sends a whole V2 request, then drops the connection after `ms`, before the batch runs. */
async function abortedRequest(ms: number): Promise<void> {
  const body = JSON.stringify(v2('paris is nice'));
  const socket = connect(server.port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(`POST /v2/models/bert2/infer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  await new Promise((r) => setTimeout(r, ms));
  socket.destroy();
}

describe('client disconnects', () => {
  it('drop their queued work, are counted as aborted, and the in-flight gauge returns to 0', async () => {
    await Promise.all(Array.from({ length: 5 }, () => abortedRequest(100)));
    const ok = await http(server.url, '/v2/models/bert2/infer', { body: v2('paris') });
    expect(ok.status).toBe(200);
    await expect
      .poll(async () => (await http(server.url, '/metrics')).text)
      .toMatch(/inferkit_requests_total\{model="bert2",route="\/v2\/models\/:name\/infer",status="aborted"\} 5/);
    const metrics = (await http(server.url, '/metrics')).text;
    expect(metrics).toMatch(/inferkit_requests_in_flight\{route="\/v2\/models\/:name\/infer"\} 0/);
    expect(metrics).toMatch(/inferkit_batch_size_count\{model="bert2"\} 1\b/);
  });
});
