import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { fixtureLoaders, http, isvc, nerFixtureDir, v2 } from './server-http.js';

let server: RunningServer;
const KEY = 'sk-test-0123456789';

beforeAll(async () => {
  const dir = await nerFixtureDir();
  server = await serve([isvc('bert-v2', { modelName: 'bert2', v2: true })], { loaders: fixtureLoaders(dir), port: 0, apiKey: KEY });
  await server.loaded();
});
afterAll(() => server?.close());

describe('apiKey', () => {
  it('liveness answers without a key', async () => {
    expect((await http(server.url, '/v2/health/live')).status).toBe(200);
    expect((await http(server.url, '/')).status).toBe(200);
  });

  it.each(['/v2/health/ready', '/metrics', '/inferkit/v1/services', '/v2/models/bert2/infer'])('%s without a key or with a wrong one is a 401 in the error form', async (path) => {
    const body = path.endsWith('infer') ? v2('paris') : undefined;
    const variants: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong' }, { authorization: KEY }];
    for (const headers of variants) {
      const a = await http(server.url, path, { body, headers });
      expect(a.status).toBe(401);
      expect(Object.keys(a.json() as object)).toEqual(['error']);
      expect(a.text).not.toContain(KEY);
    }
  });

  it('the right Bearer key is accepted', async () => {
    const a = await http(server.url, '/v2/models/bert2/infer', { body: v2('paris'), headers: { authorization: `Bearer ${KEY}` } });
    expect(a.status).toBe(200);
  });
});

describe('Host allow-list', () => {
  const auth = { authorization: `Bearer ${KEY}` };
  it.each(['localhost:8080', '127.0.0.1', '[::1]:9', 'bert-v2.default.example.com'])('accepts Host %s', async (host) => {
    const a = await http(server.url, '/v2/health/ready', { headers: { ...auth, host } });
    expect(a.status).not.toBe(400);
  });

  it.each(['evil.example.org', 'attacker.test:8080'])('refuses Host %s (DNS rebinding) with 400 naming it', async (host) => {
    const a = await http(server.url, '/inferkit/v1/services', { headers: { ...auth, host } });
    expect(a.status).toBe(400);
    expect((a.json() as { error: string }).error).toMatch(/is not allowed on this server/);
  });
});

describe('cross-site requests (no CORS)', () => {
  const auth = { authorization: `Bearer ${KEY}` };
  it.each([
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['a foreign Origin', { origin: 'https://evil.example.org' }],
    ['an opaque Origin', { origin: 'null' }],
  ])('a text/plain POST with %s is refused', async (_label, headers) => {
    const a = await http(server.url, '/v2/models/bert2/infer', { body: JSON.stringify(v2('paris')), headers: { ...auth, 'content-type': 'text/plain', ...headers } });
    expect(a.status).toBe(400);
    expect((a.json() as { error: string }).error).toMatch(/refused.*no CORS/);
    expect(a.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a same-origin browser POST passes', async () => {
    const a = await http(server.url, '/v2/models/bert2/infer', { body: v2('paris'), headers: { ...auth, origin: server.url, 'sec-fetch-site': 'same-origin' } });
    expect(a.status).toBe(200);
  });
});

describe('binding beyond loopback', () => {
  it('warns when no API key is set, not when one is', async () => {
    for (const apiKey of [undefined, 'k']) {
      const lines: string[] = [];
      const s = await serve([], { port: 0, host: '0.0.0.0', log: (l) => lines.push(l), ...(apiKey ? { apiKey } : {}) });
      await s.close();
      expect(lines.some((l) => /without an API key/.test(l))).toBe(apiKey === undefined);
    }
  });
});
