import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeNerFixtureRepo } from '../../onnx/model-repo.js';
import { startMockHub, type MockHub } from '../../../test/fixtures/mock-hub.js';
import { loadTokenClassifier } from './load-token-classifier.js';

const TOKEN = 'hf_test_secret_token_123';
let root: string;
let hub: MockHub;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-tchub-'));
  await writeNerFixtureRepo(join(root, 'repo'));
  hub = await startMockHub({ repos: { 'org/ner': { dir: join(root, 'repo'), gated: true } }, token: TOKEN });
});
afterAll(async () => {
  await hub.close();
  await rm(root, { recursive: true, force: true });
});

describe('loadTokenClassifier from the hub', () => {
  it('downloads a gated model with the token, then loads it offline from the cache', async () => {
    const cacheDir = join(root, 'cache');
    const events: string[] = [];
    const online = await loadTokenClassifier('org/ner', {
      modelName: 'ner',
      cacheDir,
      hubUrl: hub.url,
      accessToken: TOKEN,
      onProgress: (e) => events.push(`${e.type}:${e.file}`),
    });
    try {
      expect(events).toContain('file-done:onnx/model.onnx');
      expect((await online.predictV1({ instances: ['John is in Paris'] })).predictions).toEqual([[[0, 3, 0, 0, 7, 0]]]);
    } finally {
      await online.dispose();
    }
    const offline = await loadTokenClassifier('hf://org/ner', { modelName: 'ner', cacheDir, offline: true });
    try {
      expect((await offline.classify(['Berlin']))[0].entities).toMatchObject([{ entity_group: 'LOC', word: 'Berlin' }]);
    } finally {
      await offline.dispose();
    }
  });

  it('fails clearly without the token, never echoing it', async () => {
    const err = await loadTokenClassifier('org/ner', { modelName: 'ner', cacheDir: join(root, 'cache2'), hubUrl: hub.url, accessToken: 'hf_wrong_token_456' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'unauthorized' });
    expect(String((err as Error).message)).not.toContain('hf_wrong_token_456');
  });
});

describe('loadTokenClassifier without options', () => {
  it('loads the built-in fixture into the default model cache and names it by its id', { timeout: 60_000 }, async () => {
    vi.stubEnv('INFERKIT_CACHE', join(root, 'env-cache'));
    try {
      await using ner = await loadTokenClassifier('inferkit/ner-fixture');
      expect(ner.name).toBe('inferkit/ner-fixture');
      const [r] = await ner.classify(['My name is Wolfgang and I live in Berlin'], { aggregation: 'simple' });
      expect(r.entities.map((e) => ('entity_group' in e ? e.entity_group : e.entity) + ':' + e.word)).toEqual(['PER:Wolfgang', 'LOC:Berlin']);
      expect((await stat(join(root, 'env-cache', 'builtin', 'ner-fixture', 'onnx', 'model.onnx'))).isFile()).toBe(true);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('names a local folder after the folder', async () => {
    await using local = await loadTokenClassifier(join(root, 'repo'));
    expect(local.name).toBe('repo');
    expect((await local.classify(['Berlin']))[0].entities).toMatchObject([{ entity_group: 'LOC', word: 'Berlin' }]);
  });
});
