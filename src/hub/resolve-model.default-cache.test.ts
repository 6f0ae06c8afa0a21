import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { startMockHub, writeRepoDir, type MockHub } from '../../test/fixtures/mock-hub.js';
import { envCacheDir } from '../config.js';
import { resolveModel } from './resolve-model.js';
import type { FileSpec } from './file-spec.js';

const CONFIG: FileSpec = { required: ['config.json'] };

let root: string;
let hub: MockHub;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'resolve-model-default-cache-'));
  writeRepoDir(join(root, 'repo'), { 'config.json': '{"model_type":"t5"}', 'onnx/model.onnx': 'graph' });
  hub = await startMockHub({ repos: { 'org/model': { dir: join(root, 'repo') } } });
});
afterAll(async () => {
  await hub.close();
  rmSync(root, { recursive: true, force: true });
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('resolveModel without cacheDir', () => {
  it('compiles with files alone, or no options at all', () => {
    expectTypeOf(resolveModel).toBeCallableWith('org/model', { files: CONFIG });
    expectTypeOf(resolveModel).toBeCallableWith('org/model');
  });

  it('caches in the one model cache the CLI uses (INFERKIT_CACHE), and finds the files there again offline', async () => {
    const cache = mkdtempSync(join(root, 'env-cache-'));
    vi.stubEnv('INFERKIT_CACHE', cache);
    expect(envCacheDir()).toBe(cache);

    const first = await resolveModel('org/model', { files: CONFIG, hubUrl: hub.url });
    expect(first.fromCache).toBe(false);
    expect(first.dir).toBe(join(cache, 'models', 'org--model', 'main'));
    expect(readFileSync(first.files['config.json'], 'utf8')).toBe('{"model_type":"t5"}');

    hub.requests.length = 0;
    const again = await resolveModel('org/model', { files: CONFIG, offline: true });
    expect(again).toMatchObject({ fromCache: true, dir: first.dir, files: first.files });
    expect(hub.requests).toEqual([]);
  });

  it('uses an explicit cacheDir over INFERKIT_CACHE', async () => {
    const fromEnv = mkdtempSync(join(root, 'env-cache-'));
    const given = mkdtempSync(join(root, 'given-cache-'));
    vi.stubEnv('INFERKIT_CACHE', fromEnv);
    const r = await resolveModel('org/model', { files: CONFIG, hubUrl: hub.url, cacheDir: given });
    expect(r.dir).toBe(join(given, 'models', 'org--model', 'main'));
    await expect(resolveModel('org/model', { files: CONFIG, offline: true })).rejects.toMatchObject({ code: 'not_cached' });
  });
});
