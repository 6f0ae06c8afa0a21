import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockHub, writeRepoDir, type MockHub } from '../../test/fixtures/mock-hub.js';
import { resolveModel } from './resolve-model.js';

const big = Buffer.from(Array.from({ length: 2_000_000 }, (_, i) => (i * 13 + (i >> 10)) % 256));
const files = { required: ['config.json', 'onnx/model.onnx'] };
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'resolve-concurrent-'));
  writeRepoDir(join(root, 'repo'), { 'config.json': '{"chronos_config":{}}', 'onnx/model.onnx': big });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every file under `dir`, relative, recursively (bounded depth). */
function tree(dir: string, depth = 0): string[] {
  if (depth > 8) {
    return [];
  }
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tree(join(dir, e.name), depth + 1).map((p) => `${e.name}/${p}`) : [e.name],
  );
}

function downloadsPerFile(hub: MockHub): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of hub.requests) {
    if (r.method !== 'GET' || !r.path.includes('/resolve/')) {
      continue;
    }
    const file = r.path.split('/').slice(5).join('/');
    out[file] = (out[file] ?? 0) + 1;
  }
  return out;
}

function expectCleanCache(cacheDir: string): void {
  const left = tree(cacheDir).filter((p) => /\.(lock|incomplete|tmp)$|\.stale-/.test(p));
  expect(left).toEqual([]);
}

/** Runs resolveModel in a second Node process (tsx), printing the result as JSON. */
function resolveInChild(hubUrl: string, cacheDir: string): Promise<{ code: number | null; out: string; err: string }> {
  const script = join(mkdtempSync(join(root, 'child-')), 'resolve.mts');
  const entry = pathToFileURL(resolve('src/hub/resolve-model.ts')).href;
  writeFileSync(
    script,
    `import { resolveModel } from ${JSON.stringify(entry)};\n` +
      `const r = await resolveModel('org/big', { hubUrl: process.argv[2], cacheDir: process.argv[3], files: ${JSON.stringify(files)} });\n` +
      'process.stdout.write(JSON.stringify({ fromCache: r.fromCache, commit: r.commit, files: r.files }));\n',
  );
  const child = spawn(resolve('node_modules/.bin/tsx'), [script, hubUrl, cacheDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const timer = setTimeout(() => child.kill(), 40_000);
  return new Promise((done) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, out, err });
    }),
  );
}

describe('resolveModel (concurrent resolves of one model share the cache safely)', () => {
  it('two concurrent calls in one process download each file once and agree', async () => {
    const hub = await startMockHub({ repos: { 'org/big': { dir: join(root, 'repo') } }, downloadDelayMs: 300, delayPath: 'onnx/model.onnx' });
    const cacheDir = mkdtempSync(join(root, 'c-'));
    try {
      const opts = { hubUrl: hub.url, cacheDir, files };
      const [a, b] = await Promise.all([resolveModel('org/big', opts), resolveModel('org/big', opts)]);
      expect(downloadsPerFile(hub)).toEqual({ 'config.json': 1, 'onnx/model.onnx': 1 });
      expect(a.files).toEqual(b.files);
      expect(a.commit).toBe(b.commit);
      expect(readFileSync(a.files['onnx/model.onnx']).equals(big)).toBe(true);
      expectCleanCache(cacheDir);
    } finally {
      await hub.close();
    }
  });

  it('a second Node process resolving the same model waits for the first and downloads nothing twice', async () => {
    const hub = await startMockHub({ repos: { 'org/big': { dir: join(root, 'repo') } }, downloadDelayMs: 1500, delayPath: 'onnx/model.onnx' });
    const cacheDir = mkdtempSync(join(root, 'c-'));
    try {
      const child = resolveInChild(hub.url, cacheDir);
      // Start ours once the child is downloading the big file (bounded wait).
      for (let i = 0; i < 400 && !hub.requests.some((r) => r.method === 'GET' && r.path.endsWith('/onnx/model.onnx')); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const t0 = Date.now();
      const ours = await resolveModel('org/big', { hubUrl: hub.url, cacheDir, files });
      const waited = Date.now() - t0;
      const theirs = await child;
      expect(theirs.err).toBe('');
      expect(theirs.code).toBe(0);
      const parsed = JSON.parse(theirs.out) as { fromCache: boolean; commit: string; files: Record<string, string> };
      expect(downloadsPerFile(hub)).toEqual({ 'config.json': 1, 'onnx/model.onnx': 1 });
      expect(parsed).toMatchObject({ fromCache: false, commit: ours.commit, files: ours.files });
      expect(ours.fromCache).toBe(true);
      expect(waited).toBeGreaterThan(200); // it really waited on the child's lock
      expect(readFileSync(ours.files['onnx/model.onnx']).equals(big)).toBe(true);
      expectCleanCache(cacheDir);
    } finally {
      await hub.close();
    }
  });
});
