import { mkdtemp, rm } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { InferenceService } from '../../src/contract/inference-service.js';
import { fromYaml } from '../../src/manifest/manifest-yaml.js';
import type { ForecastModel } from '../../src/runtime/forecast/forecast-model.js';
import { loadTimesFm } from '../../src/runtime/forecast/timesfm/load-timesfm.js';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { startMockHub, type MockHub } from '../fixtures/mock-hub.js';
import { http } from '../integration/server-http.js';

/**
 * Replays the TimesFM conformance sets (`../shared/conformance/timesfm-2.0|2.5/`: transformers'
 * TimesFmModelForPrediction / TimesFm2_5ModelForPrediction on tiny random checkpoints, 2.0 called as KServe
 * calls it) from the safetensors path: graphs built into a temp cache, in-kernel and served from KServe's
 * TimesFM manifest through the mock hub. Tolerance: the sets' READMEs, 1e-4 × max(1, max |expected|) per series.
 */
const ROOT = join(process.cwd(), '../shared/conformance');
const CaseSchema = z.object({
  name: z.string(),
  series: z.array(z.array(z.number())),
  freq: z.array(z.number()).optional(),
  horizon: z.number().int().positive(),
  kwargs: z.record(z.string(), z.boolean()).optional(),
  mean_predictions: z.array(z.array(z.number())),
  full_predictions: z.array(z.array(z.array(z.number()))), // [series][step][column]
});
type Case = z.output<typeof CaseSchema>;
const ApiSchema = z.object({ name: z.string(), request: z.record(z.string(), z.unknown()), response: z.record(z.string(), z.unknown()).nullable() });
const read = (v: string): { cases: Case[]; api_cases?: Array<z.output<typeof ApiSchema>> } =>
  z.object({ cases: z.array(CaseSchema), api_cases: z.array(ApiSchema).optional() }).parse(JSON.parse(readFileSync(join(ROOT, `timesfm-${v}`, 'cases.json'), 'utf8')));
const V20 = read('2.0');
const V25 = read('2.5');
const FREQ = ['D', 'M', 'Y'];
const LEVELS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

const tolOf = (rows: number[][]): number => 1e-4 * Math.max(1, ...rows.flat().map(Math.abs));
/** Series i of a case, clamped at 0 (2.5's per-series clamp of a non-negative series). */
const clampedRows = (rows: number[][]): number[][] => rows.map((r) => r.map((v) => Math.max(v, 0)));

/** A model's forecast against one recorded series: raw columns (sorted per step when `sorted`) and the mean. */
function expectSeries(label: string, mean: ArrayLike<number>, levels: (q: number, h: number) => number, full: number[][], wantMean: number[], sorted: boolean): void {
  const tol = tolOf(full);
  full.forEach((cols, h) => {
    const want = sorted ? cols.slice(1).sort((a, b) => a - b) : cols.slice(1);
    want.forEach((w, q) => expect(Math.abs(levels(q, h) - w), `${label} step ${h} level ${LEVELS[q]}`).toBeLessThan(tol));
    expect(Math.abs(mean[h] - wantMean[h]), `${label} mean step ${h}`).toBeLessThan(tol);
  });
}

let root: string;
let hub: MockHub;
let server: RunningServer;
const models: ForecastModel[] = [];
const MANIFEST = (name: string, id: string): string => `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: ${name}
spec:
  predictor:
    model:
      modelFormat:
        name: huggingface
      args:
        - --model_name=${name}
        - --model_id=${id}
        - --task=time_series_forecast
`;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'inferkit-timesfm-'));
  hub = await startMockHub({
    repos: {
      'google/timesfm-2.0-500m-pytorch': { dir: join(ROOT, 'timesfm-2.0', 'model') },
      'google/timesfm-2.5-200m-transformers': { dir: join(ROOT, 'timesfm-2.5', 'model') },
    },
  });
  const docs = [MANIFEST('timesfm-2-0', 'google/timesfm-2.0-500m-pytorch'), MANIFEST('my-timesfm', 'google/timesfm-2.0-500m-pytorch'), MANIFEST('timesfm-2-5', 'google/timesfm-2.5-200m-transformers')].flatMap((t) => fromYaml(t)).filter((d): d is InferenceService => d.kind === 'InferenceService');
  server = await serve(docs, { port: 0, host: '127.0.0.1', loaders: defaultLoaders({ cacheDir: join(root, 'served-cache'), hubUrl: hub.url }) });
  const states = await server.loaded();
  states.forEach((s) => expect(s.ready, s.reason).toBe(true));
}, 120_000);
afterAll(async () => {
  await server?.close();
  await Promise.all(models.map((m) => m.dispose()));
  await hub?.close();
  await rm(root, { recursive: true, force: true });
});

const loaded = new Map<string, Promise<ForecastModel>>();
/** The conformance model of `version` in the kernel (one per option set), its graph built into a temp cache. */
function local(version: string, options: Parameters<typeof loadTimesFm>[1] = {}): Promise<ForecastModel> {
  const key = JSON.stringify([version, options]);
  let m = loaded.get(key);
  if (m === undefined) {
    m = loadTimesFm(join(ROOT, `timesfm-${version}`, 'model'), { cacheDir: join(root, 'kernel-cache'), ...options });
    loaded.set(key, m);
    void m.then((model) => models.push(model));
  }
  return m;
}

describe('TimesFM 2.0 in the kernel (built from model.safetensors) vs transformers', () => {
  it.each(V20.cases.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const model = await local('2.0');
    const f = await model.predict(c.series.map((s) => Float32Array.from(s)), c.horizon, { frequencies: (c.freq ?? []).map((i) => FREQ[i]) });
    expect(f.levels).toEqual(LEVELS);
    c.full_predictions.forEach((full, i) => expectSeries(`${c.name} s${i}`, f.mean![i], (q, h) => f.values[i][q * c.horizon + h], full, c.mean_predictions[i], false));
  });
});

describe('TimesFM 2.5 in the kernel vs transformers (clampScope batch = its rule)', () => {
  it.each(V25.cases.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const model = await local('2.5', { clampScope: 'batch', forceFlipInvariance: c.kwargs?.force_flip_invariance, truncateNegative: c.kwargs?.truncate_negative });
    const f = await model.predict(c.series.map((s) => Float32Array.from(s)), c.horizon);
    c.full_predictions.forEach((full, i) => expectSeries(`${c.name} s${i}`, f.mean![i], (q, h) => f.values[i][q * c.horizon + h], full, c.mean_predictions[i], false));
  });

  it('by default a series is clamped on its own values: a negative series beside it changes nothing (transformers: unclamped)', async () => {
    const pos = V25.cases.find((k) => k.name === 'positive-clamped') as Case;
    const neg = V25.cases.find((k) => k.name === 'len100') as Case;
    expect(pos.full_predictions[0].flat().filter((v) => v === 0).length).toBeGreaterThan(0); // the clamp is at work
    const series = [Float32Array.from(pos.series[0]), Float32Array.from(neg.series[0])];
    const f = await (await local('2.5')).predict(series, neg.horizon);
    expectSeries('positive', f.mean![0], (q, h) => f.values[0][q * neg.horizon + h], pos.full_predictions[0].slice(0, neg.horizon), pos.mean_predictions[0], false);
    expectSeries('negative', f.mean![1], (q, h) => f.values[1][q * neg.horizon + h], neg.full_predictions[0], neg.mean_predictions[0], false);
    const batchRule = await (await local('2.5', { clampScope: 'batch' })).predict(series, neg.horizon);
    expect(Math.min(...batchRule.values[0])).toBeLessThan(0);
  });

  it('an aborted call fails with its signal\'s own reason (as Chronos-Bolt\'s), and the model answers the next call', async () => {
    const model = await local('2.5');
    const series = [Float32Array.from(V25.cases[0].series[0])];
    await expect(model.predict(series, 4, { signal: AbortSignal.abort(new Error('client gone')) })).rejects.toThrow('client gone');
    expect((await model.predict(series, 4)).values).toHaveLength(1);
  });
});

async function served(model: string, c: Case): Promise<Array<{ mean_forecast: number[]; quantiles: Record<string, number[]> }>> {
  const inputs = c.series.map((series, i) => ({ type: 'univariate_time_series', name: `s${i}`, series, frequency: FREQ[c.freq?.[i] ?? 0] }));
  const a = await http(server.url, '/v1/timeseries/forecast', { body: { model, inputs, options: { horizon: c.horizon, quantiles: LEVELS } } });
  expect(a.status, a.text).toBe(200);
  const body = a.json() as { status: string; outputs: Array<{ content: Array<{ mean_forecast: number[]; quantiles: Record<string, number[]> }> }> };
  expect(body.status).toBe('completed');
  return body.outputs.map((o) => o.content[0]);
}

describe("served from KServe's TimesFM manifest (mock hub, 127.0.0.1)", () => {
  it('with the model in the cache the same manifest serves offline, reusing the built graph', async () => {
    const offline = await serve(fromYaml(MANIFEST('timesfm-2-0', 'google/timesfm-2.0-500m-pytorch')).filter((d): d is InferenceService => d.kind === 'InferenceService'), {
      port: 0,
      host: '127.0.0.1',
      loaders: defaultLoaders({ cacheDir: join(root, 'served-cache'), offline: true }),
    });
    try {
      const [state] = await offline.loaded();
      expect(state.ready, state.reason).toBe(true);
      const c = V20.cases.find((k) => k.name === 'freq1') as Case;
      const body = { model: 'timesfm-2-0', inputs: [{ type: 'univariate_time_series', name: 's', series: c.series[0], frequency: 'M' }], options: { horizon: c.horizon } };
      const [a, b] = await Promise.all([http(offline.url, '/v1/timeseries/forecast', { body }), http(server.url, '/v1/timeseries/forecast', { body })]);
      expect(a.status, a.text).toBe(200);
      const mean = (x: typeof a): unknown => (x.json() as { outputs: Array<{ content: Array<{ mean_forecast: number[] }> }> }).outputs[0].content[0].mean_forecast;
      expect(mean(a)).toEqual(mean(b));
      expect(readdirSync(join(root, 'served-cache', 'graphs')).filter((d) => d.startsWith('timesfm-2.0-'))).toHaveLength(1);
    } finally {
      await offline.close();
    }
  });

  it('downloaded only config.json and model.safetensors of each repo (no ONNX graph exists; the graph was built)', () => {
    const gets = hub.requests.filter((r) => r.method === 'GET' && r.status === 200 && /\/resolve\//.test(r.path)).map((r) => r.path.replace(/^.*\/resolve\/[^/]+\//, ''));
    expect([...new Set(gets)].sort()).toEqual(['config.json', 'model.safetensors']);
  });

  it.each(V20.cases.map((c) => [c.name, c] as const))('2.0 %s: mean_forecast = column 0, quantiles = the model levels sorted per step', async (_, c) => {
    const got = await served('timesfm-2-0', c);
    c.full_predictions.forEach((full, i) => expectSeries(`${c.name} s${i}`, got[i].mean_forecast, (q, h) => got[i].quantiles[String(LEVELS[q])][h], full, c.mean_predictions[i], true));
    // Served = in-kernel, bit for bit (the JSON holds the shortest decimal of each float32).
    const kernel = await (await local('2.0')).predict(c.series.map((s) => Float32Array.from(s)), c.horizon, { frequencies: (c.freq ?? []).map((i) => FREQ[i]) });
    got.forEach((g, i) => expect(g.mean_forecast.map(Math.fround)).toEqual(Array.from(kernel.mean![i])));
  });

  it.each(V25.cases.filter((c) => c.kwargs === undefined || Object.keys(c.kwargs).length === 0).map((c) => [c.name, c] as const))(
    '2.5 %s: mean_forecast = the 0.5 column (transformers), clamped per series',
    async (_, c) => {
      const got = await served('timesfm-2-5', c);
      c.full_predictions.forEach((full, i) => {
        const want = c.series[i].every((v) => v >= 0) ? clampedRows(full) : full;
        expectSeries(`${c.name} s${i}`, got[i].mean_forecast, (q, h) => got[i].quantiles[String(LEVELS[q])][h], want, want.map((cols) => cols[5]), true);
      });
    },
  );

  const api = (name: string): z.output<typeof ApiSchema> => (V20.api_cases ?? []).find((a) => a.name === name) as z.output<typeof ApiSchema>;
  it.each(['api-daily-3q', 'api-batch-month-hour-year', 'api-long-week-empty-quantiles'])('%s answers as KServe 0.20 (quantiles sorted per step)', async (name) => {
    const { request, response } = api(name);
    const a = await http(server.url, '/v1/timeseries/forecast', { body: request });
    expect(a.status, a.text).toBe(200);
    type Content = { name: string; frequency: string; start_timestamp: string; mean_forecast: number[]; quantiles?: Record<string, number[]> };
    type Body = { status: string; model: string; usage: unknown; outputs: Array<{ status: string; content: Content[] }> };
    const got = a.json() as Body;
    const want = response as unknown as Body;
    const kernel: Array<() => Promise<void>> = [];
    expect({ status: got.status, model: got.model, usage: got.usage }).toEqual({ status: want.status, model: want.model, usage: want.usage });
    want.outputs.forEach((o, i) => {
      const [w, g] = [o.content[0], got.outputs[i].content[0]];
      expect({ name: g.name, frequency: g.frequency, start: g.start_timestamp, keys: Object.keys(g.quantiles ?? {}) }).toEqual({ name: w.name, frequency: w.frequency, start: w.start_timestamp, keys: Object.keys(w.quantiles ?? {}) });
      const rows = w.mean_forecast.map((m, h) => [m, ...Object.values(w.quantiles ?? {}).map((q) => q[h])]);
      const tol = tolOf(rows);
      w.mean_forecast.forEach((m, h) => expect(Math.abs(g.mean_forecast[h] - m), `${name} ${w.name} mean ${h}`).toBeLessThan(tol));
      // KServe answers the raw (crossing) columns; inferkit sorts the model's 9 levels per step first. So: KServe's
      // columns = the in-kernel raw levels, and inferkit's answer = those levels sorted, read at each requested level.
      const input = (request.inputs as Array<{ series: number[]; frequency: string }>)[i];
      const horizon = w.mean_forecast.length;
      kernel.push(async () => {
        const f = await (await local('2.0')).predict([Float32Array.from(input.series)], horizon, { frequencies: [input.frequency] });
        for (let h = 0; h < horizon; h++) {
          const raw = LEVELS.map((_, q) => f.values[0][q * horizon + h]);
          const sorted = [...raw].sort((x, y) => x - y);
          for (const [key, col] of Object.entries(w.quantiles ?? {})) {
            const q = LEVELS.indexOf(Number(key));
            expect(Math.abs(raw[q] - col[h]), `${name} KServe ${key} step ${h}`).toBeLessThan(tol);
            expect(Math.abs((g.quantiles ?? {})[key][h] - sorted[q]), `${name} inferkit ${key} step ${h}`).toBeLessThan(tol);
          }
        }
      });
    });
    for (const check of kernel) {
      await check();
    }
  });

  it('answers where KServe 0.20 fails: horizon 129 (rolled out), level 0.25 (interpolated), quantiles omitted', async () => {
    const daily = (api('api-daily-3q').response as { outputs: Array<{ content: Array<{ mean_forecast: number[] }> }> }).outputs[0].content[0].mean_forecast;
    const post = async (name: string): Promise<{ mean_forecast: number[]; quantiles?: Record<string, number[]> }> => {
      const a = await http(server.url, '/v1/timeseries/forecast', { body: api(name).request });
      expect(a.status, `${name}: ${a.text}`).toBe(200);
      return (a.json() as { outputs: Array<{ content: Array<{ mean_forecast: number[]; quantiles?: Record<string, number[]> }> }> }).outputs[0].content[0];
    };
    const long = await post('api-error-horizon');
    expect(long.mean_forecast).toHaveLength(129);
    daily.forEach((m, h) => expect(Math.abs(long.mean_forecast[h] - m)).toBeLessThan(tolOf([daily])));
    const q = await post('api-error-quantile');
    expect(Object.keys(q.quantiles ?? {})).toEqual(['0.25']);
    const omitted = await post('api-quantiles-omitted');
    const empty = (api('api-long-week-empty-quantiles').response as { outputs: Array<{ content: Array<{ mean_forecast: number[] }> }> }).outputs[0].content[0];
    expect(omitted.quantiles ?? {}).toEqual({});
    empty.mean_forecast.forEach((m, h) => expect(Math.abs(omitted.mean_forecast[h] - m)).toBeLessThan(tolOf([empty.mean_forecast])));
  });
});
