import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockHub, writeRepoDir, type MockHub } from '../../test/fixtures/mock-hub.js';
import { FORECAST_FILES } from './file-spec.js';
import { resolveModel } from './resolve-model.js';
import type { HubProgressEvent } from './types.js';

const TOKEN = 'hf_SuperSecretTokenValue42';
let root: string;
let hub: MockHub;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'resolve-auth-'));
  writeRepoDir(join(root, 'gated'), { 'config.json': '{}', 'onnx/model.onnx': Buffer.alloc(2048, 1) });
  hub = await startMockHub({
    repos: { 'org/gated': { dir: join(root, 'gated'), gated: true }, 'org/private': { dir: join(root, 'gated'), private: true } },
    token: TOKEN,
  });
});
afterAll(async () => {
  await hub.close();
  rmSync(root, { recursive: true, force: true });
});

/** Every text an error could leak through: String(), message, JSON, and the whole cause chain. */
function errorTexts(err: unknown): string[] {
  const texts = [String(err), JSON.stringify(err)];
  let e: unknown = err;
  for (let depth = 0; depth < 10 && e instanceof Error; depth++) {
    texts.push(e.message, e.name, e.stack ?? '', JSON.stringify(e));
    e = e.cause;
  }
  if (e !== undefined) {
    texts.push(String(e));
  }
  return texts;
}

describe('resolveModel (auth and failures)', () => {
  it('needs a token for a gated repo and says how to give one', async () => {
    const err = await resolveModel('org/gated', { files: FORECAST_FILES, hubUrl: hub.url, cacheDir: mkdtempSync(join(root, 'c-')) }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'unauthorized' });
    expect((err as Error).message).toMatch(/HF_TOKEN/);
    expect((err as Error).message).toMatch(/accessToken/);
  });

  it('works with the token, sends it only as Authorization, and never leaks it into progress events', async () => {
    hub.requests.length = 0;
    const events: HubProgressEvent[] = [];
    const r = await resolveModel('org/gated', {
      files: FORECAST_FILES, hubUrl: hub.url, cacheDir: mkdtempSync(join(root, 'c-')), accessToken: TOKEN, onProgress: (e) => events.push(e),
    });
    expect(Object.keys(r.files).sort()).toEqual(['config.json', 'onnx/model.onnx']);
    expect(hub.requests.filter((q) => q.path.startsWith('/org/gated/resolve/')).every((q) => q.auth)).toBe(true);
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
    expect(JSON.stringify(r)).not.toContain(TOKEN);
  });

  it('keeps the token out of every error text (wrong token, private repo, network failure)', async () => {
    const wrong = 'hf_WrongButStillSecret99';
    const cacheDir = mkdtempSync(join(root, 'c-'));
    const gated = await resolveModel('org/gated', { files: FORECAST_FILES, hubUrl: hub.url, cacheDir, accessToken: wrong }).catch((e: unknown) => e);
    expect(gated).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('no access') });
    const priv = await resolveModel('org/private', { files: FORECAST_FILES, hubUrl: hub.url, cacheDir }).catch((e: unknown) => e);
    expect(priv).toMatchObject({ code: 'model_not_found', message: expect.stringContaining('private') });
    // A fetch whose failure message echoes the request headers, as some proxies/agents do.
    const leaky: typeof fetch = async (input, init) => {
      throw new TypeError(`fetch failed for ${String(input)} with Authorization: ${new Headers(init?.headers).get('authorization') ?? ''}`, {
        cause: new Error(`socket hang up; auth=${new Headers(init?.headers).get('authorization') ?? ''}`),
      });
    };
    const net = await resolveModel('org/gated', { files: FORECAST_FILES, hubUrl: hub.url, cacheDir, accessToken: wrong, fetch: leaky }).catch((e: unknown) => e);
    expect(net).toMatchObject({ code: 'network' });
    for (const [err, token] of [[gated, wrong], [priv, TOKEN], [net, wrong]] as const) {
      for (const text of errorTexts(err)) {
        expect(text).not.toContain(token);
      }
    }
    expect(errorTexts(net).join('\n')).toContain('Authorization: Bearer <masked>');
  });

  it('reports network when nothing listens at hubUrl', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const err = await resolveModel('org/gated', { files: FORECAST_FILES, hubUrl: `http://127.0.0.1:${port}`, cacheDir: mkdtempSync(join(root, 'c-')), accessToken: TOKEN }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'InferkitError', code: 'network', message: expect.stringContaining(`127.0.0.1:${port}`) });
    for (const text of errorTexts(err)) {
      expect(text).not.toContain(TOKEN);
    }
  });

  it('falls back to a complete cache when the hub is unreachable', async () => {
    const cacheDir = mkdtempSync(join(root, 'c-'));
    await resolveModel('org/gated', { files: FORECAST_FILES, hubUrl: hub.url, cacheDir, accessToken: TOKEN });
    const down: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    const r = await resolveModel('org/gated', { files: FORECAST_FILES, hubUrl: hub.url, cacheDir, fetch: down });
    expect(r.fromCache).toBe(true);
  });
});
