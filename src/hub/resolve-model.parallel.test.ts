import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockHub, writeRepoDir } from '../../test/fixtures/mock-hub.js';
import { resolveModel } from './resolve-model.js';
import type { HubProgressEvent } from './types.js';

const names = ['a.bin', 'b.bin', 'c.bin', 'd.bin', 'e.bin', 'f.bin'];
const content = (i: number): Buffer => Buffer.from(Array.from({ length: 40_000 + i * 1000 }, (_, k) => (k * (i + 3)) % 256));
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'resolve-parallel-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function repo(): string {
  return writeRepoDir(mkdtempSync(join(root, 'repo-')), Object.fromEntries(names.map((n, i) => [n, content(i)])));
}

function findPartial(dir: string, name: string, depth = 0): string | undefined {
  if (depth > 8) {
    return undefined;
  }
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const found = e.isDirectory() ? findPartial(p, name, depth + 1) : e.name === name ? p : undefined;
    if (found !== undefined) {
      return found;
    }
  }
  return undefined;
}

function leftovers(dir: string, depth = 0): string[] {
  if (depth > 8) {
    return [];
  }
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? leftovers(join(dir, e.name), depth + 1) : /\.(lock|tmp)$|\.stale-/.test(e.name) ? [e.name] : [],
  );
}

describe('resolveModel (parallel downloads)', () => {
  it('downloads up to `concurrency` files at once (default 4), with per-file progress intact', async () => {
    const dir = repo();
    const peaks: Record<string, number> = {};
    for (const concurrency of [undefined, 1]) {
      const hub = await startMockHub({ repos: { 'org/many': { dir } }, downloadDelayMs: 150 });
      try {
        const events: HubProgressEvent[] = [];
        const r = await resolveModel('org/many', { hubUrl: hub.url, cacheDir: mkdtempSync(join(root, 'c-')), concurrency, onProgress: (e) => events.push(e) });
        peaks[String(concurrency ?? 'default')] = hub.peakDownloads;
        names.forEach((n, i) => expect(readFileSync(r.files[n] ?? '').equals(content(i))).toBe(true));
        for (const [i, n] of names.entries()) {
          const mine = events.filter((e) => e.file === n);
          expect(mine[0]).toEqual({ type: 'file-start', file: n, bytes: 0, total: content(i).length });
          expect(mine.at(-1)).toEqual({ type: 'file-done', file: n, bytes: content(i).length, total: content(i).length });
          expect(mine.filter((e) => e.type === 'file-start' || e.type === 'file-done')).toHaveLength(2);
          expect(mine.every((e) => e.bytes <= e.total)).toBe(true);
        }
      } finally {
        await hub.close();
      }
    }
    expect(peaks).toEqual({ default: 4, '1': 1 });
  });

  it('one failing file fails the resolve naming it; the next resolve resumes and completes cleanly', async () => {
    const dir = repo();
    const hub = await startMockHub({ repos: { 'org/many': { dir } }, dropAfterBytes: 10_000, dropPath: 'c.bin', downloadDelayMs: 200, delayPath: 'e.bin' });
    const cacheDir = mkdtempSync(join(root, 'c-'));
    try {
      const err = await resolveModel('org/many', { hubUrl: hub.url, cacheDir, retries: 0 }).catch((e: unknown) => e);
      expect(err).toMatchObject({ name: 'InferkitError', code: 'network', message: expect.stringContaining('c.bin') });
      expect(leftovers(cacheDir)).toEqual([]);
      // How many of the 10,000 bytes sent before the drop were read depends on when the socket's end is
      // seen; whatever was kept must be resumed from exactly there (sequential resume: resume.test.ts).
      const partial = findPartial(cacheDir, 'c.bin.incomplete');
      const kept = partial === undefined ? 0 : statSync(partial).size;
      expect(kept).toBeLessThanOrEqual(10_000);
      hub.requests.length = 0;
      const r = await resolveModel('org/many', { hubUrl: hub.url, cacheDir });
      names.forEach((n, i) => expect(readFileSync(r.files[n] ?? '').equals(content(i))).toBe(true));
      const cGets = hub.requests.filter((q) => q.method === 'GET' && q.path.endsWith('/c.bin'));
      expect(cGets.map((q) => [q.range, q.status])).toEqual([kept > 0 ? [`bytes=${kept}-`, 206] : [undefined, 200]]);
      expect(leftovers(cacheDir)).toEqual([]);
      expect(readdirSync(r.dir).sort()).toEqual(names);
    } finally {
      await hub.close();
    }
  });

  it('rejects a concurrency that is not a positive integer', async () => {
    const dir = repo();
    const hub = await startMockHub({ repos: { 'org/many': { dir } } });
    try {
      await expect(resolveModel('org/many', { hubUrl: hub.url, cacheDir: mkdtempSync(join(root, 'c-')), concurrency: 0 })).rejects.toMatchObject({
        code: 'invalid_request',
        param: 'concurrency',
      });
    } finally {
      await hub.close();
    }
  });
});
