import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { fixtureLoaders, http, isvc, nerFixtureDir } from './server-http.js';

let server: RunningServer;
const TOKEN = 'hf_supersecretvalue0123456789';

beforeAll(async () => {
  const dir = await nerFixtureDir();
  const svc = isvc('bert');
  const model = svc.spec.predictor.model as unknown as Record<string, unknown>;
  model.env = [
    { name: 'HF_TOKEN', value: TOKEN },
    { name: 'MY_API_KEY', value: TOKEN },
    { name: 'LOG_LEVEL', value: 'info' },
  ];
  server = await serve([svc], { loaders: fixtureLoaders(dir), port: 0 });
  await server.loaded();
});
afterAll(() => server?.close());

describe('secrets in manifests', () => {
  it('/inferkit/v1/services masks env values of token-like names and keeps the others', async () => {
    const a = await http(server.url, '/inferkit/v1/services');
    expect(a.status).toBe(200);
    expect(a.text).not.toContain(TOKEN);
    expect(a.text).toContain('"HF_TOKEN"');
    expect(a.text).toContain('"value":"<masked>"');
    expect(a.text).toContain('"value":"info"');
  });
});
