import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockHub, writeRepoDir } from '../../test/fixtures/mock-hub.js';
import { FORECAST_FILES } from './file-spec.js';
import { resolveModel } from './resolve-model.js';
import type { HubProgressEvent } from './types.js';

const graph = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7 + (i >> 8)) % 256));
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'resolve-resume-'));
  writeRepoDir(join(root, 'repo'), { 'config.json': '{"chronos_config":{}}', 'onnx/model.onnx': graph });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('resolveModel (resumable downloads)', () => {
  it('resumes a dropped download with Range and a 206, ending byte-identical', async () => {
    const hub = await startMockHub({ repos: { 'org/ts': { dir: join(root, 'repo') } }, dropAfterBytes: 100_000, dropPath: 'onnx/model.onnx' });
    try {
      const events: HubProgressEvent[] = [];
      const r = await resolveModel('org/ts', { files: FORECAST_FILES, hubUrl: hub.url, cacheDir: mkdtempSync(join(root, 'c-')), onProgress: (e) => events.push(e) });
      expect(readFileSync(r.files['onnx/model.onnx']).equals(graph)).toBe(true);
      const gets = hub.requests.filter((q) => q.path === `/org/ts/resolve/${r.commit ?? 'main'}/onnx/model.onnx`);
      expect(gets.map((q) => [q.range, q.status])).toEqual([
        [undefined, 200],
        ['bytes=100000-', 206],
      ]);
      const starts = events.filter((e) => e.type === 'file-start' && e.file === 'onnx/model.onnx').map((e) => e.bytes);
      expect(starts).toEqual([0, 100_000]);
      expect(existsSync(`${r.files['onnx/model.onnx']}.incomplete`)).toBe(false);
    } finally {
      await hub.close();
    }
  });

  it('with retries: 0 keeps the partial file, and the next call resumes from it', async () => {
    const hub = await startMockHub({ repos: { 'org/ts': { dir: join(root, 'repo') } }, dropAfterBytes: 65_536, dropPath: 'onnx/model.onnx' });
    const cacheDir = mkdtempSync(join(root, 'c-'));
    const opts = { files: FORECAST_FILES, hubUrl: hub.url, cacheDir, retries: 0 };
    try {
      const err = await resolveModel('org/ts', opts).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'network', message: expect.stringContaining('run again to resume') });
      const part = join(cacheDir, 'models', 'org--ts', 'main', 'onnx', 'model.onnx.incomplete');
      expect(statSync(part).size).toBe(65_536);
      hub.requests.length = 0;
      const r = await resolveModel('org/ts', opts);
      expect(r.fromCache).toBe(false);
      expect(readFileSync(r.files['onnx/model.onnx']).equals(graph)).toBe(true);
      expect(hub.requests.filter((q) => q.path.endsWith('model.onnx')).map((q) => [q.range, q.status])).toEqual([['bytes=65536-', 206]]);
    } finally {
      await hub.close();
    }
  });

  it('restarts from zero when a resumed file fails the LFS sha256 check (stale partial)', async () => {
    const hub = await startMockHub({ repos: { 'org/ts': { dir: join(root, 'repo') } } });
    const cacheDir = mkdtempSync(join(root, 'c-'));
    const onnxDir = join(cacheDir, 'models', 'org--ts', 'main', 'onnx');
    mkdirSync(onnxDir, { recursive: true });
    writeFileSync(join(onnxDir, 'model.onnx.incomplete'), Buffer.alloc(1000, 0xff));
    try {
      const r = await resolveModel('org/ts', { files: FORECAST_FILES, hubUrl: hub.url, cacheDir });
      expect(readFileSync(r.files['onnx/model.onnx']).equals(graph)).toBe(true);
      expect(hub.requests.filter((q) => q.path.endsWith('model.onnx')).map((q) => [q.range, q.status])).toEqual([
        ['bytes=1000-', 206],
        [undefined, 200],
      ]);
    } finally {
      await hub.close();
    }
  });
});
