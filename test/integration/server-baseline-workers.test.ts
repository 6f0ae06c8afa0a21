import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { http, isvc } from './server-http.js';

/** `n` monthly series of 6 years (a yearly pattern, a trend, fixed noise): AutoETS fits every model family on each. */
function body(n: number) {
  const inputs = Array.from({ length: n }, (_, k) => ({
    type: 'univariate_time_series',
    name: `s${k}`,
    series: Array.from({ length: 72 }, (_, t) => 100 + k + 0.4 * t + 12 * Math.sin((2 * Math.PI * t) / 12 + k / 5) + 4 * Math.sin(t * 12.9898 + k)),
    frequency: 'M',
    start_timestamp: '2018-01-01T00:00:00Z',
  }));
  return { model: 'ets', inputs, options: { horizon: 12, quantiles: [0.1, 0.5, 0.9] } };
}

const services = () => [isvc('ets', { modelName: 'ets', args: ['--model_id=auto-ets'] })];
let inWorkers: RunningServer;
let inThread: RunningServer;

beforeAll(async () => {
  const common = { loaders: defaultLoaders({ offline: true }), port: 0, log: () => undefined, maxWaitMs: 0 };
  inWorkers = await serve(services(), { ...common, inference: { threads: 2 } });
  inThread = await serve(services(), { ...common, inference: { threads: 2, workerThreads: false } });
  await Promise.all([inWorkers.loaded(), inThread.loaded()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([inWorkers?.close(), inThread?.close()]);
});

describe('AutoETS served in worker threads', () => {
  it('shows its worker threads in the plan', async () => {
    expect(inWorkers.inference.models[0]).toMatchObject({ threads: 2, worker: true });
    expect(inThread.inference.models[0]).toMatchObject({ worker: false });
  });

  it('answers exactly what the in-thread server answers', async () => {
    const b = body(24);
    const [a, w] = await Promise.all([http(inThread.url, '/v1/timeseries/forecast', { body: b }), http(inWorkers.url, '/v1/timeseries/forecast', { body: b })]);
    expect(w.status).toBe(200);
    // Same forecasts; only the per-output ids differ.
    const outputs = (r: typeof a) => (r.json() as { outputs: Array<{ id?: string }> }).outputs.map(({ id: _id, ...rest }) => rest);
    expect(outputs(w)).toEqual(outputs(a));
    expect(outputs(w)).toHaveLength(24);
  }, 60_000);

  /** Sends a heavy request, polling health meanwhile; the request's time and the longest event-loop stall. */
  async function heavyRequest(server: RunningServer, series: number): Promise<{ took: number; stall: number; health: number[]; outputs: number }> {
    let last = performance.now();
    let stall = 0;
    const probe = setInterval(() => {
      const now = performance.now();
      stall = Math.max(stall, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    const heavy = http(server.url, '/v1/timeseries/forecast', { body: body(series) });
    let done = false;
    void heavy.finally(() => (done = true));
    const health: number[] = [];
    for (let i = 0; i < 2_000 && !done; i++) {
      health.push((await http(server.url, '/v2/health/live')).status);
      await new Promise((r) => setTimeout(r, 10));
    }
    const res = await heavy;
    clearInterval(probe);
    stall = Math.max(stall, performance.now() - last);
    expect(res.status).toBe(200);
    return { took: performance.now() - started, stall, health, outputs: (res.json() as { outputs: unknown[] }).outputs.length };
  }

  it('keeps the event loop free during a heavy request: health answers and the loop stall stays far below the request\'s time', async () => {
    const w = await heavyRequest(inWorkers, 200);
    process.stderr.write(`heavy AutoETS request in workers: ${w.took.toFixed(0)} ms, longest event-loop stall ${w.stall.toFixed(1)} ms, ${w.health.length} health checks\n`);
    expect(w.outputs).toBe(200);
    expect(w.health.length).toBeGreaterThan(0);
    expect(w.health.every((s) => s === 200)).toBe(true);
    expect(w.stall).toBeLessThan(w.took / 4);
    // The control: in the main thread the fits stall the loop for most of the request.
    const t = await heavyRequest(inThread, 100);
    process.stderr.write(`heavy AutoETS request in-thread: ${t.took.toFixed(0)} ms, longest event-loop stall ${t.stall.toFixed(1)} ms\n`);
    expect(t.stall).toBeGreaterThan(t.took / 2);
  }, 120_000);

  it('a client that leaves mid-request is counted as aborted, and the next request is answered', async () => {
    const text = JSON.stringify(body(400));
    const socket = connect(inWorkers.port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(`POST /v1/timeseries/forecast HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
    await new Promise((r) => setTimeout(r, 300));
    socket.destroy();
    await expect
      .poll(async () => (await http(inWorkers.url, '/metrics')).text, { timeout: 30_000 })
      .toMatch(/inferkit_requests_total\{model="ets",service="[^"]*",namespace="[^"]*",route="\/v1\/timeseries\/forecast",status="aborted"\} 1\b/);
    const ok = await http(inWorkers.url, '/v1/timeseries/forecast', { body: body(2) });
    expect(ok.status).toBe(200);
    expect((await http(inWorkers.url, '/metrics')).text).toMatch(/inferkit_requests_in_flight\{route="\/v1\/timeseries\/forecast"\} 0/);
  }, 60_000);
});
