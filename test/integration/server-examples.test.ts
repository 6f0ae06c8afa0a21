import { describe, expect, it } from 'vitest';
import { readManifests } from '../../src/cli/serve.js';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve } from '../../src/server/serve.js';
import { forecastBody, http, v1, v2 } from './server-http.js';
import { tempDir } from '../fixtures/temp-dirs.js';

describe('serve with the default loaders', () => {
  it('serves the example manifests offline (built-in NER fixture, seasonal-naive baseline)', async () => {
    const manifests = await readManifests(['examples/token-classification.yaml', 'examples/token-classification-v2.yaml', 'examples/forecast.yaml']);
    const cacheDir = tempDir('inferkit-cache-');
    const server = await serve(manifests, { port: 0, loaders: defaultLoaders({ cacheDir, offline: true }) });
    try {
      const states = await server.loaded();
      expect(states.map((s) => [s.host, s.ready, s.reason])).toEqual([
        ['huggingface-bert.default.example.com', true, undefined],
        ['huggingface-bert-v2.default.example.com', true, undefined],
        ['chronos-forecast.forecasting.example.com', true, undefined],
      ]);
      const a = await http(server.url, '/v1/models/bert:predict', { body: v1('My name is Wolfgang and I live in Berlin'), headers: { host: 'huggingface-bert.default.example.com' } });
      expect(a.status).toBe(200);
      const b = await http(server.url, '/v2/models/bert/infer', { body: v2('Berlin'), headers: { host: 'huggingface-bert-v2.default.example.com' } });
      expect(b.status).toBe(200);
      const c = await http(server.url, '/v1/timeseries/forecast', { body: forecastBody('chronos-bolt'), headers: { host: 'chronos-forecast.forecasting.example.com' } });
      expect(c.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('marks a hub model that is not cached offline as READY False with the reason', async () => {
    const cacheDir = tempDir('inferkit-cache-');
    const [m] = await readManifests(['examples/token-classification.yaml']);
    const hub = { ...m, spec: { predictor: { model: { ...m.spec.predictor.model!, args: ['--model_name=bert', '--model_id=dslim/bert-base-NER'] } } } };
    const server = await serve([hub], { port: 0, loaders: defaultLoaders({ cacheDir, offline: true }) });
    try {
      const [state] = await server.loaded();
      expect(state).toMatchObject({ ready: false, phase: 'failed', reason: expect.stringMatching(/not in the cache/) });
      expect((await http(server.url, '/v1/models/bert:predict', { body: v1('x') })).status).toBe(503);
    } finally {
      await server.close();
    }
  });
});

describe('serve: request logging', () => {
  it('logs nothing by default, and truncated bodies only when logRequests is on', async () => {
    const cacheDir = tempDir('inferkit-cache-');
    const manifests = await readManifests(['examples/token-classification.yaml']);
    for (const logRequests of [false, true]) {
      const lines: string[] = [];
      const server = await serve(manifests, { port: 0, logRequests, log: (l) => lines.push(l), loaders: defaultLoaders({ cacheDir, offline: true }) });
      await server.loaded();
      const secret = `patient Wolfgang ${'x'.repeat(400)}`;
      const r = await http(server.url, '/v1/models/bert:predict', { body: v1(secret) });
      expect(r.status).toBe(200);
      await server.close();
      if (!logRequests) {
        expect(lines).toEqual([]);
        continue;
      }
      expect(lines).toHaveLength(1);
      const entry = JSON.parse(lines[0]) as { status: number; model: string; body: string };
      expect(entry).toMatchObject({ status: 200, model: 'bert', path: '/v1/models/bert:predict' });
      expect(entry.body.length).toBeLessThan(260);
      expect(entry.body).toMatch(/chars\)$/);
    }
  });
});
