import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastResponseSchema } from '../../src/contract/forecast.js';
import type { Forecaster } from '../../src/contract/predictor.js';
import { localForecaster } from '../../src/protocol/forecast/local-forecaster.js';
import type { ForecastModel } from '../../src/runtime/forecast/forecast-model.js';
import { loadChronosBolt } from '../../src/runtime/forecast/load-chronos-bolt.js';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { http, isvc } from '../integration/server-http.js';
import { CONFORMANCE_DIR, caseRequest, checkpointOnlyCopy, conformanceCases as cases, conformancePresent as present, expectMatchesRecording } from './chronos-bolt-cases.js';

/**
 * Replays the official ChronosBoltPipeline's recorded answers (see chronos-bolt-cases.ts) through inferkit,
 * three ways, with the same tolerances: the ONNX export (`model/onnx/`), the graph inferkit builds from a
 * copy of the folder with only `config.json` + `model.safetensors` (in the kernel), and that copy served by
 * `serve()` on 127.0.0.1 with the default loaders (a manifest naming the folder). Skipped while the
 * recording is absent; the same semantics are tested on generated graphs in
 * src/protocol/forecast/rollout-on-quantiles.test.ts.
 */
let exported: ForecastModel;
let built: ForecastModel;
let fcExported: Forecaster;
let fcBuilt: Forecaster;
let server: RunningServer;
let checkpointDir: string;

beforeAll(async () => {
  if (!present) {
    return;
  }
  checkpointDir = checkpointOnlyCopy();
  const cacheDir = join(checkpointDir, '..', 'cache');
  exported = await loadChronosBolt(join(CONFORMANCE_DIR, 'model'), { name: 'bolt' });
  built = await loadChronosBolt(checkpointDir, { name: 'bolt', cacheDir });
  fcExported = localForecaster(exported);
  fcBuilt = localForecaster(built);
  const manifest = isvc('bolt', { modelName: 'bolt', args: [`--model_id=${checkpointDir}`, '--task=time_series_forecast'] });
  server = await serve([manifest], { loaders: defaultLoaders({ cacheDir }), port: 0, log: () => undefined });
  await server.loaded();
}, 120_000);
afterAll(async () => {
  await exported?.dispose();
  await built?.dispose();
  await server?.close();
  if (checkpointDir !== undefined) {
    rmSync(join(checkpointDir, '..'), { recursive: true, force: true });
  }
});

const each = cases.map((c) => [c.name, c] as const);

describe.skipIf(!present)('Chronos-Bolt vs the official pipeline (recorded)', () => {
  describe('from the ONNX export', () => {
    it.each(each)('%s', async (_, c) => expectMatchesRecording(await fcExported.forecast(caseRequest(c, 'bolt')), c));
  });

  describe('from config.json + model.safetensors (graph built by inferkit), in the kernel', () => {
    it.each(each)('%s', async (_, c) => expectMatchesRecording(await fcBuilt.forecast(caseRequest(c, 'bolt')), c));
  });

  it('builds from model.safetensors beside the export with preferCheckpoint (and answers the same)', async () => {
    const m = await loadChronosBolt(join(CONFORMANCE_DIR, 'model'), { name: 'bolt', preferCheckpoint: true, cacheDir: join(checkpointDir, '..', 'prefer') });
    try {
      const c = cases.find((k) => k.name === 'mixed-lengths') ?? cases[0];
      expectMatchesRecording(await localForecaster(m).forecast(caseRequest(c, 'bolt')), c);
      expect(readdirSync(join(checkpointDir, '..', 'prefer', 'graphs')).filter((d) => d.startsWith('chronos-bolt-fp32-'))).toHaveLength(1);
    } finally {
      await m.dispose();
    }
  });

  describe('from config.json + model.safetensors, served (POST /v1/timeseries/forecast)', () => {
    it.each(each)('%s', async (_, c) => {
      const a = await http(server.url, '/v1/timeseries/forecast', { body: caseRequest(c, 'bolt') });
      expectMatchesRecording(ForecastResponseSchema.parse(a.json()), c);
    });
  });
});
