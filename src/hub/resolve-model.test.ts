import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockHub, writeRepoDir, type MockHub } from '../../test/fixtures/mock-hub.js';
import { FORECAST_FILES, TOKEN_CLASSIFICATION_FILES } from './file-spec.js';
import { resolveModel } from './resolve-model.js';
import type { HubProgressEvent } from './types.js';

const onnx = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 31) % 251));
let root: string;
let hub: MockHub;
let cacheDir: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'resolve-model-'));
  writeRepoDir(join(root, 'ner'), {
    'config.json': '{"id2label":{"0":"O"}}',
    'tokenizer.json': '{"model":{}}',
    'vocab.txt': '[PAD]\n[UNK]\n',
    'special_tokens_map.json': '{}',
    'onnx/model.onnx': onnx,
    'model.onnx': 'top-level graph, should not be chosen',
    'pytorch_model.bin': Buffer.alloc(30_000),
  });
  writeRepoDir(join(root, 'flat'), { 'config.json': '{}', 'model.onnx': 'flat graph' });
  hub = await startMockHub({
    repos: {
      'dslim/bert-base-NER': { dir: join(root, 'ner') },
      'org/flat': { dir: join(root, 'flat'), revision: 'v2' },
    },
  });
});
afterAll(async () => {
  await hub.close();
  rmSync(root, { recursive: true, force: true });
});
afterEach(() => {
  hub.requests.length = 0;
});

const fresh = (): string => mkdtempSync(join(root, 'cache-'));
const resolveGets = (): number => hub.requests.filter((r) => r.method === 'GET' && r.path.includes('/resolve/')).length;

describe('resolveModel (hub)', () => {
  it('downloads only the wanted files, then serves them from the cache without any file download', async () => {
    cacheDir = fresh();
    const events: HubProgressEvent[] = [];
    const first = await resolveModel('dslim/bert-base-NER', {
      files: TOKEN_CLASSIFICATION_FILES, hubUrl: hub.url, cacheDir, onProgress: (e) => events.push(e),
    });
    expect(first.fromCache).toBe(false);
    expect(Object.keys(first.files).sort()).toEqual(['config.json', 'onnx/model.onnx', 'special_tokens_map.json', 'tokenizer.json']);
    expect(first.dir).toBe(join(cacheDir, 'models', 'dslim--bert-base-NER', 'main'));
    expect(first.files['onnx/model.onnx']).toBe(join(first.dir, 'onnx', 'model.onnx'));
    expect(readFileSync(first.files['onnx/model.onnx']).equals(onnx)).toBe(true);
    expect(first.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(resolveGets()).toBe(4);
    expect(hub.requests.some((r) => r.path.endsWith('model.onnx') && !r.path.includes('/onnx/'))).toBe(false);
    const done = events.filter((e) => e.type === 'file-done' && e.file === 'onnx/model.onnx');
    expect(done).toEqual([{ type: 'file-done', file: 'onnx/model.onnx', bytes: onnx.length, total: onnx.length }]);

    hub.requests.length = 0;
    events.length = 0;
    const second = await resolveModel('dslim/bert-base-NER', {
      files: TOKEN_CLASSIFICATION_FILES, hubUrl: hub.url, cacheDir, onProgress: (e) => events.push(e),
    });
    expect(second.fromCache).toBe(true);
    expect(second.files).toEqual(first.files);
    expect(resolveGets()).toBe(0);
    expect(hub.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/models/dslim/bert-base-NER/paths-info/main']);
    expect(events.map((e) => e.type)).toEqual(['cache-hit', 'cache-hit', 'cache-hit', 'cache-hit']);
  });

  it('works offline from the cache with no request at all', async () => {
    const r = await resolveModel('hf://dslim/bert-base-NER', { files: TOKEN_CLASSIFICATION_FILES, hubUrl: hub.url, cacheDir, offline: true });
    expect(r.fromCache).toBe(true);
    expect(Object.keys(r.files)).toContain('onnx/model.onnx');
    expect(hub.requests).toEqual([]);
  });

  it('fails offline without a cache, naming repo, revision, every missing file and the fix', async () => {
    const err = await resolveModel('org/flat@v2', { files: FORECAST_FILES, hubUrl: hub.url, cacheDir: fresh(), offline: true }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'InferkitError', code: 'not_cached' });
    const msg = (err as Error).message;
    for (const part of ['org/flat@v2', 'config.json', 'one of (onnx/model.onnx, model.onnx, model.safetensors', 'online', 'cacheDir']) {
      expect(msg).toContain(part);
    }
    expect(hub.requests).toEqual([]);
  });

  it('re-downloads a file whose content changed on the hub, and only that one', async () => {
    const repoDir = join(root, 'ner');
    writeFileSync(join(repoDir, 'config.json'), '{"id2label":{"0":"O","1":"B-PER"}}');
    try {
      const r = await resolveModel('dslim/bert-base-NER', { files: TOKEN_CLASSIFICATION_FILES, hubUrl: hub.url, cacheDir });
      expect(r.fromCache).toBe(false);
      expect(readFileSync(r.files['config.json'], 'utf8')).toContain('B-PER');
      // Downloads are pinned to the commit the branch pointed to when the resolve started.
      expect(hub.requests.filter((q) => q.path.includes('/resolve/')).map((q) => q.path)).toEqual([
        `/dslim/bert-base-NER/resolve/${r.commit ?? 'no-commit'}/config.json`,
      ]);
    } finally {
      writeFileSync(join(repoDir, 'config.json'), '{"id2label":{"0":"O"}}');
    }
  });

  it('uses model.onnx when the repo has no onnx/ folder; hf:// refs carry the revision', async () => {
    const dir = fresh();
    const r = await resolveModel('hf://org/flat@v2', { files: FORECAST_FILES, hubUrl: hub.url, cacheDir: dir });
    expect(r).toMatchObject({ repo: 'org/flat', revision: 'v2', source: 'hub', dir: join(dir, 'models', 'org--flat', 'v2') });
    expect(Object.keys(r.files)).toEqual(['config.json', 'model.onnx']);
    // List at v2, pin v2 to its commit, list again at that commit, download at that commit.
    expect(hub.requests.filter((q) => q.path.startsWith('/api/')).map((q) => `${q.method} ${q.path}`)).toEqual([
      'POST /api/models/org/flat/paths-info/v2',
      'GET /api/models/org/flat/revision/v2',
      `POST /api/models/org/flat/paths-info/${r.commit ?? '?'}`,
    ]);
    expect(hub.requests.filter((q) => q.path.includes('/resolve/')).every((q) => q.path.includes(`/resolve/${r.commit ?? '?'}/`))).toBe(true);
    await expect(resolveModel('hf://org/flat@v2', { revision: 'main', cacheDir: dir })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it("fetches every file for files: 'all' (tree listing)", async () => {
    const r = await resolveModel('org/flat', { revision: 'v2', hubUrl: hub.url, cacheDir: fresh() });
    expect(Object.keys(r.files).sort()).toEqual(['config.json', 'model.onnx']);
    expect(hub.requests[0]?.path).toBe('/api/models/org/flat/tree/v2');
  });

  it('answers model_not_found for an unknown repo, a missing revision, or a repo lacking the files', async () => {
    const opts = { files: FORECAST_FILES, hubUrl: hub.url, cacheDir: fresh() };
    await expect(resolveModel('nobody/nothing', opts)).rejects.toMatchObject({ code: 'model_not_found', message: expect.stringContaining('nobody/nothing') });
    await expect(resolveModel('org/flat@v9', opts)).rejects.toMatchObject({ code: 'model_not_found', message: expect.stringContaining('v9') });
    const spec = { required: ['config.json', 'tokenizer.json'] };
    await expect(resolveModel('org/flat@v2', { ...opts, files: spec })).rejects.toMatchObject({
      code: 'model_not_found',
      message: expect.stringContaining('tokenizer.json'),
    });
  });

  it('stops when the signal is aborted, with the abort reason', async () => {
    const controller = new AbortController();
    controller.abort(new DOMException('user cancelled', 'AbortError'));
    const err = await resolveModel('dslim/bert-base-NER', { files: FORECAST_FILES, hubUrl: hub.url, cacheDir: fresh(), signal: controller.signal }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'AbortError', message: 'user cancelled' });
  });
});
