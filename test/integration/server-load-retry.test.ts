import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InferkitError } from '../../src/errors.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { deferred, fixtureLoaders, http, isvc, nerFixtureDir, v2 } from './server-http.js';

let server: RunningServer;
const lines: string[] = [];
const calls: Record<string, number[]> = { flaky: [], down: [], gated: [] };
const secondFailure = deferred();
const release = deferred();

beforeAll(async () => {
  const dir = await nerFixtureDir();
  const fixtures = fixtureLoaders(dir);
  server = await serve(
    [isvc('bert', { modelName: 'bert' }), isvc('flaky', { modelName: 'flaky' }), isvc('down', { modelName: 'down' }), isvc('gated', { modelName: 'gated' })],
    {
      port: 0,
      loadRetry: { attempts: 3, initialDelayMs: 100, maxDelayMs: 150 },
      log: (l) => lines.push(l),
      loaders: {
        token_classification: async (c) => {
          const name = c.config.modelName;
          calls[name]?.push(Date.now());
          if (name === 'flaky' && calls.flaky.length < 3) {
            if (calls.flaky.length === 2) {
              secondFailure.resolve();
              await release.promise;
            }
            throw new InferkitError('network', `hub unreachable (attempt ${calls.flaky.length})`);
          }
          if (name === 'down') {
            throw new Error('connect ECONNREFUSED 10.0.0.1:443');
          }
          if (name === 'gated') {
            throw new InferkitError('unauthorized', 'org/gated is gated: set HF_TOKEN');
          }
          return (fixtures.token_classification as NonNullable<typeof fixtures.token_classification>)(c);
        },
      },
    },
  );
});
afterAll(() => server?.close());

const byName = (name: string) => server.models().find((m) => m.name === name);

describe('failed loads are retried with bounded exponential backoff and reported', () => {
  it('while a retry is pending: the model says why and when, and direct readiness waits', async () => {
    await secondFailure.promise;
    expect(byName('flaky')).toMatchObject({ phase: 'failed', reason: 'hub unreachable (attempt 1)', retry: { attempt: 2, of: 3 } });
    const ready = await http(server.url, '/v2/health/ready');
    expect(ready.status).toBe(503);
    const infer = await http(server.url, '/v2/models/flaky/infer', { body: v2('paris') });
    expect(infer.status).toBe(503);
    expect((infer.json() as { error: string }).error).toMatch(/failed to load: hub unreachable \(attempt 1\); retry 2 of 3 at \d{4}-/);
    // Whole seconds until the next attempt, at least 1 (the retry is 100 ms away or already due).
    expect(infer.headers['retry-after']).toBe('1');
    const meta = await http(server.url, '/v2/models/flaky');
    expect([meta.status, meta.headers['retry-after']]).toEqual([503, '1']);
    release.resolve();
  });

  it('a transient failure heals; a lasting one stops after the attempts; a permanent one is not retried', async () => {
    const states = await server.loaded();
    const of = (n: string) => states.find((s) => s.name === n);
    expect(of('flaky')).toMatchObject({ phase: 'ready', ready: true });
    expect(of('flaky')?.retry).toBeUndefined();
    expect(calls.flaky).toHaveLength(3);
    expect(calls.flaky[1] - calls.flaky[0]).toBeGreaterThanOrEqual(95);
    expect(of('down')).toMatchObject({ phase: 'failed', reason: 'connect ECONNREFUSED 10.0.0.1:443' });
    expect(of('down')?.retry).toBeUndefined();
    expect(calls.down).toHaveLength(3);
    const gaps = [calls.down[1] - calls.down[0], calls.down[2] - calls.down[1]];
    expect(gaps[0]).toBeGreaterThanOrEqual(95);
    expect(gaps[1]).toBeGreaterThanOrEqual(145);
    expect(calls.gated).toHaveLength(1);
    expect((await http(server.url, '/v2/models/flaky/infer', { body: v2('paris') })).status).toBe(200);
    // A failure with no attempt left: 503 without Retry-After (waiting would not help).
    const down = await http(server.url, '/v2/models/down/infer', { body: v2('paris') });
    expect(down.status).toBe(503);
    expect(down.headers['retry-after']).toBeUndefined();
  });

  it('is reported in the log and the metrics', async () => {
    expect(lines.filter((l) => /model down failed to load/.test(l))).toEqual([
      'warning: service default/down: model down failed to load (attempt 1 of 3, retrying in 100 ms): connect ECONNREFUSED 10.0.0.1:443',
      'warning: service default/down: model down failed to load (attempt 2 of 3, retrying in 150 ms): connect ECONNREFUSED 10.0.0.1:443',
      'warning: service default/down: model down failed to load (attempt 3 of 3, giving up): connect ECONNREFUSED 10.0.0.1:443',
    ]);
    expect(lines.filter((l) => /model gated failed/.test(l))).toHaveLength(1);
    const metrics = (await http(server.url, '/metrics')).text;
    expect(metrics).toMatch(/inferkit_model_load_failures_total\{model="flaky"\} 2\b/);
    expect(metrics).toMatch(/inferkit_model_load_failures_total\{model="down"\} 3\b/);
    expect(metrics).toMatch(/inferkit_model_ready\{model="down"\} 0\b/);
  });

  it('/v2/health/ready: a direct address is ready once loading settled with a model ready; the failed service Host is not', async () => {
    expect((await http(server.url, '/v2/health/ready')).status).toBe(200);
    expect((await http(server.url, '/v2/health/ready', { headers: { host: 'down.default.example.com' } })).status).toBe(503);
    expect((await http(server.url, '/v2/health/ready', { headers: { host: 'bert.default.example.com' } })).status).toBe(200);
    expect((await http(server.url, '/v2/models/down/ready')).json()).toEqual({ name: 'down', ready: false, reason: 'connect ECONNREFUSED 10.0.0.1:443' });
  });
});
