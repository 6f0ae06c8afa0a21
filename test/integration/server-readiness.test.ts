import { describe, expect, it } from 'vitest';
import type { ModelLoader } from '../../src/server/model-loader.js';
import { serve } from '../../src/server/serve.js';
import { deferred, fixtureLoaders, forecastBody, http, isvc, nerFixtureDir, v1, v2, type HttpAnswer } from './server-http.js';

// Issue 28: readiness said 200 while inference answered 503 "is loading". Each probe below is polled
// while its model's load is held; the moment it answers 200, an inference goes out and must be answered.
const LONG = `m${'x'.repeat(199)}`;

/** Polls `probe` until it answers 200 (bounded), recording every status seen. */
async function untilReady(probe: () => Promise<HttpAnswer>, seen: number[]): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    const a = await probe();
    seen.push(a.status);
    if (a.status === 200) {
      return;
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('readiness turns true only when inference is answered (issue 28)', () => {
  it('for three services loading one after the other: V2 model ready, V1 model status under a 200-character name, service health', async () => {
    const fixtures = fixtureLoaders(await nerFixtureDir());
    const gates = new Map(['tok', LONG, 'fc'].map((name) => [name, deferred()]));
    const held = (inner: ModelLoader | undefined): ModelLoader => async (ctx) => {
      await gates.get(ctx.config.modelName)?.promise;
      if (inner === undefined) {
        throw new Error('no loader');
      }
      return inner(ctx);
    };
    const forecast = isvc('fc', { modelName: 'fc', args: ['--model_id=seasonal-naive'] });
    const server = await serve([isvc('tok', { v2: true }), isvc('long', { modelName: LONG }), forecast], {
      port: 0,
      loaders: { token_classification: held(fixtures.token_classification), time_series_forecast: held(fixtures.time_series_forecast) },
    });
    try {
      const cases = [
        { name: 'tok', probe: () => http(server.url, '/v2/models/tok/ready'), infer: () => http(server.url, '/v2/models/tok/infer', { body: v2('paris') }) },
        { name: LONG, probe: () => http(server.url, `/v1/models/${LONG}`), infer: () => http(server.url, `/v1/models/${LONG}:predict`, { body: v1('paris') }) },
        {
          name: 'fc',
          probe: () => http(server.url, '/v2/health/ready', { headers: { host: 'fc.default.example.com' } }),
          infer: () => http(server.url, '/v1/timeseries/forecast', { body: forecastBody('fc'), headers: { host: 'fc.default.example.com' } }),
        },
      ];
      for (const c of cases) {
        const before = await c.probe();
        expect(before.status, c.name).toBe(503);
        const seen: number[] = [];
        const flipped = untilReady(c.probe, seen);
        await new Promise((r) => setTimeout(r, 20));
        gates.get(c.name)?.resolve();
        await flipped;
        const answer = await c.infer();
        expect(seen.at(-1), c.name).toBe(200);
        expect(answer.status, `${c.name}: ${answer.text}`).toBe(200);
      }
      expect((await http(server.url, '/v2/models/tok/ready')).json()).toEqual({ name: 'tok', ready: true });
    } finally {
      await server.close();
    }
  }, 60_000);

  it('a model that failed to load answers 503 with its reason on both readiness routes', async () => {
    const server = await serve([isvc('bad', { v2: true })], {
      port: 0,
      loadRetry: { attempts: 1 },
      loaders: { token_classification: () => Promise.reject(new Error('weights are corrupt')) },
    });
    try {
      await server.loaded();
      const v2Ready = await http(server.url, '/v2/models/bad/ready');
      const v1Status = await http(server.url, '/v1/models/bad');
      expect([v2Ready.status, v1Status.status]).toEqual([503, 503]);
      expect(v2Ready.json()).toEqual({ name: 'bad', ready: false, reason: 'weights are corrupt' });
    } finally {
      await server.close();
    }
  });
});
