import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockHub, type MockHub } from '../../../test/fixtures/mock-hub.js';
import { pytorchBinCopy } from '../../../test/fixtures/torch-save.js';
import { FORECAST_ONNX_GRAPHS, FORECAST_SIDE_FILES, TOKEN_CLASSIFICATION_GRAPHS, TOKEN_CLASSIFICATION_SIDE_FILES } from '../../hub/file-spec.js';
import { resolveModelGraph } from '../resolve-model-graph.js';

// Every family inferkit builds, from a repo that publishes only pytorch_model.bin: the graph is the one its
// model.safetensors gives, byte for byte (so every answer the conformance sets check from safetensors holds), and a hub
// download fetches the index and its shards, not the other weight files.
const SETS = join(process.cwd(), '../shared/conformance');
const FAMILIES = [
  ['kserve-hf', 'token-classification'],
  ['kserve-hf-distilbert', 'token-classification'],
  ['kserve-hf-roberta', 'token-classification'],
  ['kserve-hf-xlmr', 'token-classification'],
  ['kserve-hf-deberta-v3', 'token-classification'],
  ['chronos-bolt', 'forecast'],
  ['chronos-2', 'forecast'],
  ['timesfm-2.0', 'forecast'],
  ['timesfm-2.5', 'forecast'],
] as const;
const root = mkdtempSync(join(tmpdir(), 'inferkit-torch-graphs-'));
let hub: MockHub;
beforeAll(async () => {
  const dir = pytorchBinCopy(join(SETS, 'kserve-hf-deberta-v3', 'model'), join(root, 'deberta-sharded'), ['--shards', '2']);
  hub = await startMockHub({ repos: { 'org/deberta-bin': { dir } } });
});
afterAll(async () => {
  await hub?.close();
  rmSync(root, { recursive: true, force: true });
});

const options = (task: 'token-classification' | 'forecast', cacheDir: string) =>
  task === 'forecast'
    ? { task, onnxGraphs: FORECAST_ONNX_GRAPHS, files: FORECAST_SIDE_FILES, preferCheckpoint: true, cacheDir }
    : { task, onnxGraphs: TOKEN_CLASSIFICATION_GRAPHS, files: TOKEN_CLASSIFICATION_SIDE_FILES, preferCheckpoint: true, cacheDir };

describe('graphs built from pytorch_model.bin', () => {
  it.each(FAMILIES)('%s: the same graph as from model.safetensors, byte for byte', async (set, task) => {
    const fromSafetensors = await resolveModelGraph(join(SETS, set, 'model'), options(task, join(root, `${set}-st-cache`)));
    const bin = pytorchBinCopy(join(SETS, set, 'model'), join(root, `${set}-bin`));
    const fromBin = await resolveModelGraph(bin, options(task, join(root, `${set}-bin-cache`)));
    expect(fromBin).toMatchObject({ from: 'checkpoint', family: fromSafetensors.family, cached: false });
    for (const f of ['', '.data']) {
      expect(readFileSync(fromBin.graphPath + f).equals(readFileSync(fromSafetensors.graphPath + f)), `model.onnx${f}`).toBe(true);
    }
  });

  it('fetches pytorch_model.bin.index.json and its shards from a hub, and nothing else of the weights', async () => {
    const files: string[] = [];
    const got = await resolveModelGraph('org/deberta-bin', { ...options('token-classification', join(root, 'hub-cache')), hubUrl: hub.url, onProgress: (e) => void (e.type === 'file-done' && files.push(e.file)) });
    expect(got).toMatchObject({ from: 'checkpoint', family: 'deberta-v2' });
    expect(files.filter((f) => f.includes('pytorch_model')).sort()).toEqual(['pytorch_model-00001-of-00002.bin', 'pytorch_model-00002-of-00002.bin', 'pytorch_model.bin.index.json']);
    const local = await resolveModelGraph(join(root, 'deberta-sharded'), options('token-classification', join(root, 'hub-cache-local')));
    expect(readFileSync(got.graphPath + '.data').equals(readFileSync(local.graphPath + '.data'))).toBe(true);
  });
});
