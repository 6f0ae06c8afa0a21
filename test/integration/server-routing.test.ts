import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InferkitError } from '../../src/errors.js';
import { loadTokenClassifier } from '../../src/runtime/token-classification/load-token-classifier.js';
import { servedTokenClassifier } from '../../src/server/default-loaders.js';
import type { ModelLoaders } from '../../src/server/model-loader.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { deferred, fixtureLoaders, http, isvc, nerFixtureDir, v1 } from './server-http.js';

let dir: string;
beforeAll(async () => {
  dir = await nerFixtureDir();
});

describe('serve: Host routing', () => {
  let server: RunningServer;
  beforeAll(async () => {
    // Two services, the same model name "bert": only Host tells them apart.
    const manifests = [isvc('alpha', { modelName: 'bert' }), isvc('beta', { modelName: 'bert', namespace: 'team', url: 'http://beta.team.models.internal' })];
    const loaders = fixtureLoaders(dir);
    const lowerFirst: ModelLoaders = {
      token_classification: async (ctx) => {
        // beta keeps case (cased fixture is not needed: the "known words" table is lower-case, so
        // upper-case input maps to [UNK]/O on beta and to entities on alpha) — observable routing.
        if (ctx.isvc.metadata.name === 'beta') {
          return servedTokenClassifier(await loadTokenClassifier(dir, { modelName: 'bert', disableLowerCase: true }));
        }
        return (loaders.token_classification as NonNullable<ModelLoaders['token_classification']>)(ctx);
      },
    };
    server = await serve(manifests, { loaders: lowerFirst, port: 0 });
    await server.loaded();
  });
  afterAll(() => server.close());

  const predict = (host: string) => http(server.url, '/v1/models/bert:predict', { body: v1('Paris'), headers: { host } });

  it('sends each Host to its own service (host:port and any letter case accepted)', async () => {
    const a = await predict(`ALPHA.default.Example.COM:${server.port}`);
    const b = await predict('beta.team.models.internal');
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.json()).not.toEqual(b.json());
    expect(a.json()).toEqual((await predict('alpha.default.example.com')).json());
    expect((await http(server.url, '/v1/models', { headers: { host: 'beta.team.models.internal' } })).json()).toEqual({ models: ['bert'] });
  });

  it('404 names an unknown service host; a direct call with an ambiguous name is a 400 asking for Host', async () => {
    const u = await predict('gamma.default.example.com');
    expect([u.status, u.json()]).toEqual([404, { error: expect.stringMatching(/no InferenceService is served at host "gamma\.default\.example\.com"/) }]);
    const d = await http(server.url, '/v1/models/bert:predict', { body: v1('Paris') });
    expect([d.status, d.json()]).toEqual([400, { error: expect.stringMatching(/several services.*send the Host header/) }]);
  });
});

describe('serve: background loading and load failures', () => {
  it('answers at once, 503 while a model loads, READY False with the reason when one fails, others serve', async () => {
    const gate = deferred();
    const base = fixtureLoaders(dir);
    const loaders: ModelLoaders = {
      token_classification: async (ctx) => {
        if (ctx.config.modelName === 'broken') {
          throw new InferkitError('model_load_failed', 'onnx/model.onnx is missing');
        }
        if (ctx.config.modelName === 'slow') {
          await gate.promise;
        }
        return (base.token_classification as NonNullable<ModelLoaders['token_classification']>)(ctx);
      },
    };
    const server = await serve([isvc('slow'), isvc('broken'), isvc('fine'), isvc('odd', { args: ['--task=speech'] })], { loaders, port: 0 });
    try {
      const loading = await http(server.url, '/v1/models/slow:predict', { body: v1('paris') });
      expect([loading.status, loading.json()]).toEqual([503, { error: 'model "slow" is loading; retry shortly' }]);
      expect((await http(server.url, '/v2/health/ready')).status).toBe(503);
      expect((await http(server.url, '/v1/models/slow')).json()).toEqual({ name: 'slow', ready: false });
      for (let i = 0; i < 200 && server.models().find((m) => m.name === 'fine')?.phase === 'loading'; i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
      expect((await http(server.url, '/v1/models/fine:predict', { body: v1('paris') })).status).toBe(200);
      const broken = await http(server.url, '/v1/models/broken:predict', { body: v1('paris') });
      expect([broken.status, broken.json()]).toEqual([503, { error: 'model "broken" failed to load: onnx/model.onnx is missing' }]);
      const states = Object.fromEntries(server.models().map((m) => [m.name, m]));
      expect(states.broken.status.conditions).toContainEqual(expect.objectContaining({ type: 'Ready', status: 'False', reason: 'ModelLoadFailed', message: 'onnx/model.onnx is missing' }));
      expect(states.odd).toMatchObject({ ready: false, phase: 'failed', reason: expect.stringMatching(/--task=speech is not served/) });
      expect(states.slow.status.conditions).toContainEqual(expect.objectContaining({ type: 'Ready', status: 'Unknown', reason: 'Loading' }));
      gate.resolve();
      await server.loaded();
      expect((await http(server.url, '/v1/models/slow:predict', { body: v1('paris') })).status).toBe(200);
      expect(server.models().map((m) => m.ready)).toEqual([true, false, true, false]);
    } finally {
      await server.close();
    }
  });
});
