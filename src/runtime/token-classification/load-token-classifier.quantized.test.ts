import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeNerFixtureRepo } from '../../onnx/model-repo.js';
import { startMockHub, type MockHub } from '../../../test/fixtures/mock-hub.js';
import { FULL_NER_PREDICTIONS, SWAPPED_NER_PREDICTIONS, SWAPPED_NER_TEXT, writeSwappedNerRepo } from '../../../test/fixtures/swapped-ner-repo.js';
import { loadTokenClassifier, type TokenClassifierOptions, type TokenClassifierSource } from './load-token-classifier.js';

let root: string;
let hub: MockHub;
const withQuantized = (): string => join(root, 'with-quantized');
const plainOnly = (): string => join(root, 'plain');

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-tcq-'));
  await writeSwappedNerRepo(withQuantized());
  await writeNerFixtureRepo(plainOnly());
  hub = await startMockHub({ repos: { 'org/ner-q': { dir: withQuantized() }, 'org/ner-plain': { dir: plainOnly() } } });
});
afterAll(async () => {
  await hub.close();
  await rm(root, { recursive: true, force: true });
});

async function predictWith(source: TokenClassifierSource, options: Partial<TokenClassifierOptions> = {}) {
  const classifier = await loadTokenClassifier(source, { modelName: 'ner', ...options });
  try {
    return { predictions: (await classifier.predictV1({ instances: [SWAPPED_NER_TEXT] })).predictions, info: classifier.info };
  } finally {
    await classifier.dispose();
  }
}

describe('loadTokenClassifier quantized', () => {
  it('runs onnx/model.onnx by default and onnx/model_quantized.onnx when asked (local folder)', async () => {
    const full = await predictWith(withQuantized());
    expect(full.predictions).toEqual(FULL_NER_PREDICTIONS);
    expect(full.info).toMatchObject({ quantized: false, modelFile: join(withQuantized(), 'onnx', 'model.onnx') });
    const quantized = await predictWith(withQuantized(), { quantized: true });
    expect(quantized.predictions).toEqual(SWAPPED_NER_PREDICTIONS);
    expect(quantized.info).toMatchObject({ quantized: true, modelFile: join(withQuantized(), 'onnx', 'model_quantized.onnx') });
  });

  it('fails with model_load_failed naming the file when the folder has no quantized graph', async () => {
    const err = await loadTokenClassifier(plainOnly(), { modelName: 'ner', quantized: true }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'InferkitError', code: 'model_load_failed' });
    expect((err as Error).message).toContain('onnx/model_quantized.onnx');
  });

  it('downloads the quantized graph from the hub only when asked, and runs it', async () => {
    const events: string[] = [];
    const onProgress = (e: { type: string; file: string }): void => void events.push(`${e.type}:${e.file}`);
    const full = await predictWith('org/ner-q', { cacheDir: join(root, 'cache-full'), hubUrl: hub.url, onProgress });
    expect(full.predictions).toEqual(FULL_NER_PREDICTIONS);
    expect(events.filter((e) => e.includes('model_quantized'))).toEqual([]);

    events.length = 0;
    const quantized = await predictWith('hf://org/ner-q', { cacheDir: join(root, 'cache-q'), hubUrl: hub.url, onProgress, quantized: true });
    expect(events).toContain('file-done:onnx/model_quantized.onnx');
    expect(events.filter((e) => e.endsWith(':onnx/model.onnx'))).toEqual([]); // the full graph is not fetched
    expect(quantized.predictions).toEqual(SWAPPED_NER_PREDICTIONS);
    expect(quantized.info.quantized).toBe(true);
  });

  it('fails clearly when the hub repo has no quantized graph', async () => {
    const err = await loadTokenClassifier('org/ner-plain', { modelName: 'ner', cacheDir: join(root, 'cache-plain'), hubUrl: hub.url, quantized: true }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'model_not_found' });
    expect((err as Error).message).toContain('onnx/model_quantized.onnx');
  });
});
