import { describe, expect, it } from 'vitest';
import { remote } from '../client/remote.js';
import type { ForecastRequestInput, ForecastResponse, TimeSeriesInput } from '../contract/forecast.js';
import type { InferenceService } from '../contract/inference-service.js';
import type { CallOptions, Forecaster } from '../contract/predictor.js';
import { InferkitError, ValidationError } from '../errors.js';
import { localForecaster } from '../protocol/forecast/local-forecaster.js';
import { seasonalNaive } from '../runtime/forecast/seasonal-naive.js';
import { theta } from '../runtime/forecast/theta.js';
import { serve } from '../server/serve.js';
import { batchForecast, type BatchForecastOptions } from './batch-forecast.js';
import type { BatchProgress } from './batch-result.js';
import { frameToInputs } from './frame-to-inputs.js';

function series(n: number, length = 24): TimeSeriesInput[] {
  return Array.from({ length: n }, (_, s) => ({
    type: 'univariate_time_series' as const,
    name: `s${s}`,
    frequency: 'month' as const,
    start_timestamp: '2020-01-01T00:00:00Z',
    series: Array.from({ length }, (_, t) => 100 + s + 10 * Math.sin((2 * Math.PI * t) / 12)),
  }));
}

/** A real in-kernel forecaster behind a wrapper that counts calls and concurrency and can fail on cue. */
function instrumented(fail: (names: string[]) => unknown = () => undefined, inner: Forecaster = localForecaster(seasonalNaive())) {
  const stats = { calls: 0, inFlight: 0, maxInFlight: 0, sizes: [] as number[] };
  const f: Forecaster = {
    name: inner.name,
    async forecast(request: ForecastRequestInput, options?: CallOptions): Promise<ForecastResponse> {
      stats.calls++;
      stats.sizes.push(request.inputs.length);
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      try {
        await new Promise((r) => setTimeout(r, 2));
        const err = fail(request.inputs.map((i) => i.name));
        if (err) {
          throw err;
        }
        return await inner.forecast(request, options);
      } finally {
        stats.inFlight--;
      }
    },
  };
  return { f, stats };
}

describe('batchForecast', () => {
  it('forecasts a thousand series in bounded-concurrency chunks, reporting progress', async () => {
    const { f, stats } = instrumented();
    const events: BatchProgress[] = [];
    const r = await batchForecast(series(1000), f, { horizon: 6, quantiles: [0.1, 0.9], chunkSize: 100, concurrency: 3, onProgress: (p) => events.push(p) });
    expect(r.status).toBe('completed');
    expect(r.forecasts.map((x) => x.name)).toEqual(series(1000).map((s) => s.name));
    expect(r.forecasts[0]).toMatchObject({ start_timestamp: '2022-01-01T00:00:00Z', frequency: 'month' });
    expect(Object.keys(r.forecasts[0].quantiles ?? {})).toEqual(['0.1', '0.9']);
    expect([stats.calls, r.requests, stats.maxInFlight]).toEqual([10, 10, 3]);
    expect(events[0]).toEqual({ done: 0, total: 1000, failed: 0 });
    expect(events.at(-1)).toEqual({ done: 1000, total: 1000, failed: 0 });
    expect(events.map((e) => e.done)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
    expect(r.usage.total_tokens).toBeGreaterThan(0);
  });

  it('collects per-series failures without losing the rest', async () => {
    const inputs = series(10);
    inputs[3] = { ...inputs[3], series: [null, null, null] };
    const { f } = instrumented();
    const events: BatchProgress[] = [];
    const r = await batchForecast(inputs, f, { horizon: 3, chunkSize: 4, onProgress: (p) => events.push(p) });
    expect(r.status).toBe('partial');
    expect(r.failures.map((x) => x.name)).toEqual(['s3']);
    expect(r.failures[0].error.message.length).toBeGreaterThan(0);
    expect(r.forecasts).toHaveLength(9);
    expect(events.at(-1)).toEqual({ done: 10, total: 10, failed: 1 });
  });

  it('splits a chunk rejected as invalid until the bad series is isolated', async () => {
    const { f, stats } = instrumented((names) => (names.includes('s5') ? new ValidationError([{ path: 'inputs[5].series', message: 'bad series' }]) : undefined));
    const r = await batchForecast(series(8), f, { horizon: 2, chunkSize: 8 });
    expect(r.failures).toEqual([{ name: 's5', error: { code: 'invalid_request', message: 'inputs[5].series: bad series', param: 'inputs[5].series', type: 'request_error' } }]);
    expect(r.forecasts.map((x) => x.name)).toEqual(['s0', 's1', 's2', 's3', 's4', 's6', 's7']);
    expect(stats.sizes).toEqual([8, 4, 4, 2, 1, 1, 2]);
  });

  it('reports every series of a chunk that failed for another reason, keeping the other chunks', async () => {
    const { f } = instrumented((names) => (names.includes('s2') ? new InferkitError('network', 'connection reset') : undefined));
    const r = await batchForecast(series(6), f, { horizon: 2, chunkSize: 3 });
    expect(r.failures.map((x) => [x.name, x.error.code, x.error.message])).toEqual([
      ['s0', 'network', 'connection reset'],
      ['s1', 'network', 'connection reset'],
      ['s2', 'network', 'connection reset'],
    ]);
    expect(r.forecasts.map((x) => x.name)).toEqual(['s3', 's4', 's5']);
  });

  it('takes a long frame directly and stops when aborted', async () => {
    const rows = ['a', 'b'].flatMap((id) => Array.from({ length: 24 }, (_, t) => ({ id, timestamp: new Date(Date.UTC(2020, t, 1)).toISOString(), value: t % 12 })));
    const { f } = instrumented();
    const r = await batchForecast(rows, f, { horizon: 12 });
    expect(r.inputs).toEqual(frameToInputs(rows));
    expect(r.forecasts.map((x) => x.mean_forecast)).toEqual([Array.from({ length: 12 }, (_, t) => t), Array.from({ length: 12 }, (_, t) => t)]);
    const controller = new AbortController();
    const run = batchForecast(series(50), f, { horizon: 2, chunkSize: 5, concurrency: 1, signal: controller.signal, onProgress: (p) => p.done >= 10 && controller.abort(new InferkitError('timeout', 'stopped by user')) });
    await expect(run).rejects.toThrow('stopped by user');
  });
});

describe('batchForecast with bad call options', () => {
  /** Options as plain JS may pass them: any shape. */
  const loose = (o: unknown) => o as BatchForecastOptions;

  it('rejects a missing or invalid horizon before any request, naming the field; a good call still works', async () => {
    const { f, stats } = instrumented(undefined, localForecaster(theta()));
    for (const options of [undefined, {}, { horizon: 0 }, { horizon: 2.5 }, { horizon: '6' }]) {
      const err = await batchForecast(series(30), f, loose(options)).catch((e: unknown) => e);
      expect(err, JSON.stringify(options)).toBeInstanceOf(ValidationError);
      expect(err).toMatchObject({ code: 'invalid_request', param: 'options.horizon' });
      expect((err as Error).message).toMatch(/^batchForecast: options\.horizon: /);
    }
    expect(stats.calls).toBe(0);
    const r = await batchForecast(series(30), f, { horizon: 6, chunkSize: 10 });
    expect([r.status, r.forecasts.length, r.requests, stats.calls]).toEqual(['completed', 30, 3, 3]);
    expect(r.forecasts[0].mean_forecast).toHaveLength(6);
  });

  it('rejects bad quantiles, levels and model names up front too, in several-model batches as well', async () => {
    const { f, stats } = instrumented();
    const cases: Array<[unknown, string]> = [
      [{ horizon: 3, quantiles: [0.1, 1.5] }, 'options.quantiles[1]'],
      [{ horizon: 3, quantiles: 0.5 }, 'options.quantiles'],
      [{ horizon: 3, level: [80, 150] }, 'options.level[1]'],
      [{ horizon: 3, model: '' }, 'options.model'],
      [{ horizon: 3, chunkSize: Number.NaN }, 'options.chunkSize'],
      [{ horizon: 3, chunkSize: 0 }, 'options.chunkSize'],
      [{ horizon: 3, concurrency: 1.5 }, 'options.concurrency'],
    ];
    for (const [options, param] of cases) {
      await expect(batchForecast(series(4), f, loose(options))).rejects.toMatchObject({ code: 'invalid_request', param });
      await expect(batchForecast(series(4), [f, theta()], loose(options))).rejects.toMatchObject({ code: 'invalid_request', param });
    }
    await expect(batchForecast(series(4), f, loose({ horizon: 3, quantiles: [2] }))).rejects.toThrow('batchForecast: options.quantiles[0]: expected a quantile level in (0, 1)');
    expect(stats.calls).toBe(0);
  });

  it('still isolates a bad series whose error names a field of its own, and outlives one stray 404', async () => {
    const names = series(8).map((s) => s.name);
    const bad = names[1];
    // A custom service naming the series field its own way (not `inputs[…]`): still one series' fault.
    const own = instrumented((chunk) => (chunk.includes(bad) ? new InferkitError('invalid_request', 'series has NaN', { param: 'series' }) : undefined));
    const r = await batchForecast(series(8), own.f, { horizon: 3, chunkSize: 2, concurrency: 1 });
    expect([r.status, r.forecasts.length, r.failures.map((x) => x.name)]).toEqual(['partial', 7, [bad]]);
    // One 404 (a rolling deploy) fails its chunk only; the next chunk is sent and answered.
    let first = true;
    const stray = instrumented(() => (first ? ((first = false), new InferkitError('model_not_found', 'no model m')) : undefined));
    const s = await batchForecast(series(8), stray.f, { horizon: 3, chunkSize: 2, concurrency: 1 });
    expect([s.status, s.forecasts.length, s.failures.length, stray.stats.calls]).toEqual(['partial', 6, 2, 4]);
  });

  it('does not split a chunk the forecaster rejects for its options, and sends no more chunks', async () => {
    const { f, stats } = instrumented(undefined, localForecaster(theta(), { maxHorizon: 5 }));
    const r = await batchForecast(series(16), f, { horizon: 6, chunkSize: 4, concurrency: 1 });
    expect([r.status, r.requests, stats.calls, stats.sizes]).toEqual(['error', 1, 1, [4]]);
    expect(r.failures.map((x) => x.name)).toEqual(series(16).map((s) => s.name));
    expect(r.failures[0].error).toMatchObject({ code: 'invalid_request', param: 'options.horizon' });
    expect(r.failures[0].error.message).toContain('exceeds the maximum of 5 steps');
  });

  it('sends one HTTP request to a real server that rejects the horizon, instead of hunting for bad series', async () => {
    const manifest: InferenceService = {
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      metadata: { name: 'naive' },
      spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, args: ['--model_name=naive', '--model_id=seasonal-naive', '--task=time_series_forecast'] } } },
    };
    const server = await serve([manifest], { port: 0, host: '127.0.0.1' });
    try {
      await server.loaded();
      const posts: string[] = [];
      const counting: typeof fetch = (input, init) => {
        posts.push(`${init?.method ?? 'GET'} ${String(input)}`);
        return fetch(input, init);
      };
      const naive = remote({ baseUrl: server.url }, { modelName: 'naive', fetch: counting, retries: 0 });
      const r = await batchForecast(series(24), naive, { horizon: 20_000, chunkSize: 3, concurrency: 1 });
      expect(r.status).toBe('error');
      expect(r.failures).toHaveLength(24);
      expect(r.failures[0].error).toMatchObject({ code: 'invalid_request' });
      expect(r.failures[0].error.message).toContain('exceeds the maximum of 10000 steps');
      expect(posts).toEqual([`POST ${server.url}/v1/timeseries/forecast`]);
      expect(r.requests).toBe(1);
      posts.length = 0;
      await expect(batchForecast(series(24), naive, loose({ chunkSize: 3 }))).rejects.toMatchObject({ param: 'options.horizon' });
      expect(posts).toEqual([]);
      const good = await batchForecast(series(24), naive, { horizon: 4, chunkSize: 12 });
      expect([good.status, good.forecasts.length, posts.length]).toEqual(['completed', 24, 2]);
      // A model name the server does not serve is the call's mistake too: two 404s (one may be a rolling
      // deploy's), not one per chunk.
      posts.length = 0;
      const typo = await batchForecast(series(24), remote({ baseUrl: server.url }, { modelName: 'naiv', fetch: counting, retries: 0 }), { horizon: 4, chunkSize: 3, concurrency: 1 });
      expect([typo.status, typo.failures.length, typo.failures[0].error.code, posts.length]).toEqual(['error', 24, 'model_not_found', 2]);
    } finally {
      await server.close();
    }
  });
});
