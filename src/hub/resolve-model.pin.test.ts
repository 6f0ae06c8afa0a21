import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockHub, writeRepoDir } from '../../test/fixtures/mock-hub.js';
import { readCacheMeta } from './model-cache.js';
import { resolveModel } from './resolve-model.js';

const files = { required: ['config.json', 'weights.txt'] };
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'resolve-pin-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('resolveModel (commit pinning)', () => {
  it('downloads every file of a branch at the commit it pointed to when the resolve began, despite a push meanwhile', async () => {
    // Same sizes before and after the push, plain (non-LFS) files: only the pin keeps them consistent.
    const dir = writeRepoDir(join(root, 'repo'), { 'config.json': '{"version":1}', 'weights.txt': 'weights v1' });
    const hub = await startMockHub({ repos: { 'org/m': { dir } }, downloadDelayMs: 300, delayPath: 'config.json' });
    const cacheDir = mkdtempSync(join(root, 'c-'));
    try {
      const pending = resolveModel('org/m', { hubUrl: hub.url, cacheDir, files, concurrency: 1 });
      for (let i = 0; i < 500 && !hub.requests.some((r) => r.path.endsWith('/config.json')); i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
      writeFileSync(join(dir, 'config.json'), '{"version":2}');
      writeFileSync(join(dir, 'weights.txt'), 'weights v2');
      const r = await pending;
      expect(readFileSync(r.files['config.json'] ?? '', 'utf8')).toBe('{"version":1}');
      expect(readFileSync(r.files['weights.txt'] ?? '', 'utf8')).toBe('weights v1');
      expect(r.commit).toMatch(/^[0-9a-f]{40}$/);
      const gets = hub.requests.filter((q) => q.method === 'GET' && q.path.includes('/resolve/')).map((q) => q.path);
      expect(gets).toEqual([`/org/m/resolve/${r.commit ?? ''}/config.json`, `/org/m/resolve/${r.commit ?? ''}/weights.txt`]);
      expect((await readCacheMeta(join(cacheDir, 'models', 'org--m', '.meta', 'main.json'), 'org/m', 'main')).commit).toBe(r.commit);

      // The next resolve of the branch sees the push: both files at the new commit.
      const next = await resolveModel('org/m', { hubUrl: hub.url, cacheDir, files });
      expect(next.commit).not.toBe(r.commit);
      expect(readFileSync(next.files['config.json'] ?? '', 'utf8')).toBe('{"version":2}');
      expect(readFileSync(next.files['weights.txt'] ?? '', 'utf8')).toBe('weights v2');
    } finally {
      await hub.close();
    }
  });

  it('does not ask for the commit when the revision is already a sha, or when everything is cached', async () => {
    const dir = writeRepoDir(join(root, 'repo2'), { 'config.json': '{}', 'weights.txt': 'w' });
    const hub = await startMockHub({ repos: { 'org/m': { dir } } });
    const cacheDir = mkdtempSync(join(root, 'c-'));
    try {
      const first = await resolveModel('org/m', { hubUrl: hub.url, cacheDir, files });
      hub.requests.length = 0;
      await resolveModel('org/m', { hubUrl: hub.url, cacheDir, files });
      expect(hub.requests.map((q) => q.path)).toEqual(['/api/models/org/m/paths-info/main']);
      hub.requests.length = 0;
      await resolveModel(`org/m@${first.commit ?? ''}`, { hubUrl: hub.url, cacheDir, files });
      expect(hub.requests.filter((q) => q.path.startsWith('/api/')).map((q) => q.path)).toEqual([`/api/models/org/m/paths-info/${first.commit ?? ''}`]);
    } finally {
      await hub.close();
    }
  });
});
