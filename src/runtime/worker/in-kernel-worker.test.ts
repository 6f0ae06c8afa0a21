import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChronosFixtureRepo, writeNerFixtureRepo } from '../../onnx/model-repo.js';
import { loadChronosBolt } from '../forecast/load-chronos-bolt.js';
import { loadTokenClassifier } from '../token-classification/load-token-classifier.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-inkernel-worker-'));
  await writeNerFixtureRepo(join(root, 'ner'), { encoder: 'random' });
  await writeChronosFixtureRepo(join(root, 'bolt'), { kind: 'bolt-like' });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('in-kernel models with session: { worker: true }', () => {
  it('a token classifier answers exactly as in-thread; after dispose it refuses with model_not_ready', async () => {
    const texts = ['John lives in Paris', 'maria is in berlin and london', ''];
    const local = await loadTokenClassifier(join(root, 'ner'), { modelName: 'ner' });
    const remote = await loadTokenClassifier(join(root, 'ner'), { modelName: 'ner', session: { worker: true, intraOpThreads: 1 } });
    try {
      expect(await remote.predictProbabilities(texts)).toEqual(await local.predictProbabilities(texts));
      expect(await remote.classify(texts)).toEqual(await local.classify(texts));
    } finally {
      await local.dispose();
      await remote.dispose();
    }
    await expect(remote.predictV1({ instances: ['x'] })).rejects.toMatchObject({ code: 'model_not_ready' });
  }, 60_000);

  it('a Chronos-Bolt-shaped forecaster answers exactly as in-thread', async () => {
    const series = [Float32Array.from({ length: 40 }, (_, t) => Math.sin(t / 3)), Float32Array.from({ length: 17 }, (_, t) => t)];
    const local = await loadChronosBolt(join(root, 'bolt'));
    const remote = await loadChronosBolt(join(root, 'bolt'), { session: { worker: true } });
    try {
      expect(await remote.predict(series, 4)).toEqual(await local.predict(series, 4));
    } finally {
      await local.dispose();
      await remote.dispose();
    }
  }, 60_000);
});
