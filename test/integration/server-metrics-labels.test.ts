import { describe, expect, it } from 'vitest';
import { serve } from '../../src/server/serve.js';
import { fixtureLoaders, http, isvc, nerFixtureDir, v2 } from './server-http.js';

// Issue 28: two services serving a model named `bert` shared one series, and 4xx carried model="".
describe('request metrics carry service and namespace', () => {
  it('two services with a model of the same name are two series; a 404 on a service Host counts for that service', async () => {
    const server = await serve([isvc('ner-a', { modelName: 'bert', v2: true }), isvc('ner-b', { modelName: 'bert', v2: true, namespace: 'team-b' })], {
      loaders: fixtureLoaders(await nerFixtureDir()),
      port: 0,
    });
    try {
      await server.loaded();
      const a = { host: 'ner-a.default.example.com' };
      const b = { host: 'ner-b.team-b.example.com' };
      for (let i = 0; i < 3; i++) {
        expect((await http(server.url, '/v2/models/bert/infer', { body: v2('paris'), headers: a })).status).toBe(200);
      }
      expect((await http(server.url, '/v2/models/bert/infer', { body: v2('paris'), headers: b })).status).toBe(200);
      expect((await http(server.url, '/v2/models/nope/infer', { body: v2('paris'), headers: b })).status).toBe(404);
      expect((await http(server.url, '/v2/models/bert/infer', { body: { inputs: 'x' }, headers: a })).status).toBe(400);
      const text = (await http(server.url, '/metrics')).text;
      const route = 'route="/v2/models/:name/infer"';
      expect(text).toContain(`inferkit_requests_total{model="bert",service="ner-a",namespace="default",${route},status="200"} 3`);
      expect(text).toContain(`inferkit_requests_total{model="bert",service="ner-b",namespace="team-b",${route},status="200"} 1`);
      expect(text).toContain(`inferkit_requests_total{model="",service="ner-b",namespace="team-b",${route},status="404"} 1`);
      expect(text).toContain(`inferkit_requests_total{model="bert",service="ner-a",namespace="default",${route},status="400"} 1`);
      expect(text).toMatch(/inferkit_request_duration_seconds_count\{model="bert",service="ner-b",namespace="team-b",route="\/v2\/models\/:name\/infer",status="200"\} 1/);
    } finally {
      await server.close();
    }
  });
});
