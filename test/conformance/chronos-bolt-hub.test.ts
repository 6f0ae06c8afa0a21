import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModelGraph } from '../../src/checkpoint/resolve-model-graph.js';
import { FORECAST_ONNX_GRAPHS, FORECAST_SIDE_FILES } from '../../src/hub/file-spec.js';
import { localForecaster } from '../../src/protocol/forecast/local-forecaster.js';
import { loadForecastModel } from '../../src/runtime/forecast/load-forecast-model.js';
import { startMockHub, type MockHub } from '../fixtures/mock-hub.js';
import { caseRequest, checkpointOnlyCopy, conformanceCases, conformancePresent as present, expectMatchesRecording } from './chronos-bolt-cases.js';

/**
 * Chronos-Bolt as Amazon publishes it on the hub (config.json, model.safetensors, a README; no ONNX),
 * served by the local mock hub: loadForecastModel picks Chronos-Bolt from config.json, downloads only
 * config.json and model.safetensors, builds the graph (answers as the recorded pipeline), and a second
 * load reuses the cached graph without downloading anything.
 */
const REPO = 'amazon/chronos-bolt-tiny';
let hub: MockHub;
let root: string;
let cacheDir: string;

beforeAll(async () => {
  if (!present) {
    return;
  }
  const dir = checkpointOnlyCopy();
  writeFileSync(join(dir, 'README.md'), '# Chronos-Bolt (conformance copy)\n');
  root = join(dir, '..');
  cacheDir = join(root, 'cache');
  hub = await startMockHub({ repos: { [REPO]: { dir } } });
});
afterAll(async () => {
  await hub?.close();
  if (root !== undefined) {
    rmSync(root, { recursive: true, force: true });
  }
});

const downloads = (): string[] => hub.requests.filter((r) => r.method === 'GET' && /\/(resolve|raw)\//.test(r.path)).map((r) => r.path.split('/').pop() ?? '');

describe.skipIf(!present)('Chronos-Bolt from a hub repo with only config.json + model.safetensors', () => {
  it('downloads only config.json and model.safetensors, and the built graph answers as the pipeline', async () => {
    const model = await loadForecastModel(REPO, { hubUrl: hub.url, cacheDir, name: 'bolt' });
    try {
      expect([...new Set(downloads())].sort()).toEqual(['config.json', 'model.safetensors']);
      const c = conformanceCases.find((k) => k.name === 'nan-gaps') ?? conformanceCases[0];
      expectMatchesRecording(await localForecaster(model).forecast(caseRequest(c, 'bolt')), c);
    } finally {
      await model.dispose();
    }
  });

  it('a second load reuses the cached graph and downloads nothing', async () => {
    hub.requests.length = 0;
    const again = await resolveModelGraph(REPO, { hubUrl: hub.url, cacheDir, task: 'forecast', onnxGraphs: FORECAST_ONNX_GRAPHS, files: FORECAST_SIDE_FILES });
    expect(again).toMatchObject({ from: 'checkpoint', family: 'chronos-bolt', cached: true, buildMs: 0 });
    expect(again.graphPath.startsWith(join(cacheDir, 'graphs'))).toBe(true);
    expect(downloads()).toEqual([]);
  });
});
