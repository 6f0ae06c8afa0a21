import { mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMockHub, type MockHub } from '../../../test/fixtures/mock-hub.js';
import { ruleForecasterGraph } from '../../onnx/chronos-bolt.js';
import { writeChronosFixtureRepo, type ChronosFixtureRepoOptions } from '../../onnx/model-repo.js';
import type { ForecastModel } from './forecast-model.js';
import { inferenceService } from '../../manifest/inference-service.js';
import { runtimeConfig } from '../../manifest/runtime-config.js';
import { defaultLoaders } from '../../server/default-loaders.js';
import { loadChronosBolt } from './load-chronos-bolt.js';

const TOKEN = 'hf_ExternalDataSecret77';
const SHAPE: ChronosFixtureRepoOptions = { kind: 'bolt-like', contextLength: 32, predictionLength: 4, patchSize: 8, dModel: 16, heads: 2, layers: 1, seed: 5 };
let root: string;
let hub: MockHub;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'inferkit-bolt-ext-'));
  await writeChronosFixtureRepo(join(root, 'inline'), SHAPE);
  const written = await writeChronosFixtureRepo(join(root, 'ext'), { ...SHAPE, externalData: true });
  expect(written).toEqual(['config.json', 'onnx/model.onnx', 'onnx/model.onnx.data']);
  await writeChronosFixtureRepo(join(root, 'nodata'), { ...SHAPE, externalData: true });
  unlinkSync(join(root, 'nodata', 'onnx', 'model.onnx.data'));
  hub = await startMockHub({
    repos: { 'org/bolt-ext': { dir: join(root, 'ext'), gated: true }, 'org/bolt-nodata': { dir: join(root, 'nodata'), gated: true } },
    token: TOKEN,
  });
});
afterAll(async () => {
  await hub?.close();
  rmSync(root, { recursive: true, force: true });
});

const batch = [Float32Array.from({ length: 20 }, (_, t) => 10 + Math.sin(t)), Float32Array.from([3, Number.NaN, 5, 4, 6, 5, 7, 6, 8])];
const forecastOf = async (m: ForecastModel): Promise<number[][]> => (await m.predict(batch, 4)).values.map((v) => Array.from(v));

/** Every text an error could leak through, cause chain included. */
function errorTexts(err: unknown): string {
  const texts = [String(err), JSON.stringify(err)];
  for (let e = err, depth = 0; depth < 10 && e instanceof Error; depth++, e = e.cause) {
    texts.push(e.message, e.stack ?? '', JSON.stringify(e));
  }
  return texts.join('\n');
}

describe('loadChronosBolt: weights as external data (onnx/model.onnx.data)', () => {
  it('loads a local folder whose graph keeps its weights beside it, with the inline graph\'s forecasts', async () => {
    const [inline, ext] = [await loadChronosBolt(join(root, 'inline')), await loadChronosBolt(join(root, 'ext'))];
    const want = await forecastOf(inline);
    expect(await forecastOf(ext)).toEqual(want);
    expect(want.flat().every(Number.isFinite)).toBe(true);
    await inline.dispose();
    await ext.dispose();
  });

  it('fetches the data file from the hub (with the token) and then works offline from the cache', async () => {
    const cacheDir = mkdtempSync(join(root, 'cache-'));
    hub.requests.length = 0;
    const model = await loadChronosBolt('org/bolt-ext', { hubUrl: hub.url, cacheDir, accessToken: TOKEN });
    const downloads = hub.requests.filter((q) => q.method === 'GET' && q.path.includes('/resolve/'));
    expect(downloads.map((q) => q.path.replace(/^.*\/resolve\/[^/]+\//, '')).sort()).toEqual(['config.json', 'onnx/model.onnx', 'onnx/model.onnx.data']);
    expect(downloads.every((q) => q.auth && q.status === 200)).toBe(true);
    const local = await loadChronosBolt(join(root, 'inline'));
    expect(await forecastOf(model)).toEqual(await forecastOf(local));
    await model.dispose();
    hub.requests.length = 0;
    const offline = await loadChronosBolt('org/bolt-ext', { cacheDir, offline: true });
    expect(hub.requests).toEqual([]);
    expect(await forecastOf(offline)).toEqual(await forecastOf(local));
    await offline.dispose();
    await local.dispose();
  });

  it('uses the one model cache (INFERKIT_CACHE, read by src/config.ts) when no cacheDir is given', async () => {
    const cacheDir = mkdtempSync(join(root, 'shared-cache-'));
    vi.stubEnv('INFERKIT_CACHE', cacheDir);
    try {
      hub.requests.length = 0;
      const model = await loadChronosBolt('org/bolt-ext', { hubUrl: hub.url, accessToken: TOKEN });
      expect(hub.requests.filter((q) => q.method === 'GET' && q.path.includes('/resolve/'))).toHaveLength(3);
      expect(readdirSync(join(cacheDir, 'models'))).toEqual(['org--bolt-ext']);
      const want = await forecastOf(model);
      await model.dispose();
      // Offline, from that cache, with neither cacheDir nor hub.
      hub.requests.length = 0;
      const offline = await loadChronosBolt('org/bolt-ext', { offline: true });
      expect(hub.requests).toEqual([]);
      expect(await forecastOf(offline)).toEqual(want);
      await offline.dispose();
      // The server's default loader for a non-baseline forecast id goes the same way.
      const isvc = inferenceService({ name: 'bolt', modelId: 'org/bolt-ext' }).service;
      const load = defaultLoaders({ offline: true }).time_series_forecast;
      const served = await load?.({ isvc, config: runtimeConfig(isvc), task: 'time_series_forecast', signal: new AbortController().signal });
      expect(served?.task === 'time_series_forecast' && served.model).toMatchObject({ name: 'bolt', nativeHorizon: 4 });
      await served?.dispose?.();
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('names a missing data file (hub and local) and never shows the token', async () => {
    const cacheDir = mkdtempSync(join(root, 'cache-'));
    const err = await loadChronosBolt('org/bolt-nodata', { hubUrl: hub.url, cacheDir, accessToken: TOKEN }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'model_not_found' });
    expect((err as Error).message).toMatch(/onnx\/model\.onnx\.data.*external data of onnx\/model\.onnx/);
    expect(errorTexts(err)).not.toContain(TOKEN);
    const wrong = await loadChronosBolt('org/bolt-ext', { hubUrl: hub.url, cacheDir, accessToken: `${TOKEN}x` }).catch((e: unknown) => e);
    expect(wrong).toMatchObject({ code: 'unauthorized' });
    expect(errorTexts(wrong)).not.toContain(TOKEN);
    const local = await loadChronosBolt(join(root, 'nodata')).catch((e: unknown) => e);
    expect(local).toMatchObject({ code: 'model_not_found' });
    expect((local as Error).message).toMatch(/missing: onnx\/model\.onnx\.data/);
  });

  it('refuses a graph whose external data lies outside its repo', async () => {
    const dir = join(root, 'escape');
    await writeChronosFixtureRepo(dir, { contextLength: 8, predictionLength: 300, patchSize: 4, quantiles: [0.5] });
    const { model, data } = ruleForecasterGraph({ predictionLength: 300, quantiles: [0.5] }).toExternalData('../../outside.data');
    expect(data.length).toBe(1200);
    writeFileSync(join(dir, 'onnx', 'model.onnx'), model);
    const err = await loadChronosBolt(dir).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'model_load_failed' });
    expect((err as Error).message).toMatch(/onnx\/model\.onnx keeps external data at "\.\.\/\.\.\/outside\.data", which is not a path inside its repo/);
  });
});
