import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { CONFORMANCE_DIR } from '../conformance/exchanges.js';
import { http, isvc } from './server-http.js';

// A runtime arg the service's model would not use fails that model's load (once: a `config` error is
// not retried) naming the arg and the models that take it; the arg on the right model still serves.
const forecast = ['--task=time_series_forecast'];
const services = [
  isvc('chronos', { args: ['--model_id=amazon/chronos-bolt-small', ...forecast, '--season=24', '--max_context=100'] }),
  isvc('theta', { args: ['--model_id=theta', '--seasonal_periods=7'] }),
  isvc('naive', { args: ['--model_id=naive', '--season=7'] }),
  isvc('both', { args: ['--model_id=mstl', '--season=7', '--seasonal_periods=7,14'] }),
  isvc('int8', { args: ['--model_id=auto-ets', '--onnx_variant=quantized'] }),
  // a typo'd baseline is not sent to the hub (offline here: a hub attempt would say so)
  isvc('typo', { args: ['--model_id=baseline/thetta'] }),
  isvc('bert', { args: [`--model_id=${CONFORMANCE_DIR}/model`, '--task=token_classification', '--season=7'] }),
  isvc('good', { args: ['--model_id=theta', '--season=7'] }),
  isvc('bare', { args: ['--model_id=theta', '--season'] }),
  // --model_dir names the model when --model_id does not (as in KServe); next to --model_id it is reported
  isvc('dir', { args: [`--model_dir=${CONFORMANCE_DIR}/model`, '--task=token_classification'] }),
  isvc('shadow', { args: ['--model_id=theta', '--model_dir=/mnt/models'] }),
  // KServe's tokenizer args on a forecaster: KServe ignores them too, so a warning, not a failure
  isvc('kserve', { args: ['--model_id=seasonal-naive', '--disable_lower_case', '--max_length=32', '--model_revision=v2'] }),
];
let server: RunningServer;
const logged: string[] = [];

beforeAll(async () => {
  // offline: a hub model is never fetched, so chronos's failure can only come from its args
  server = await serve(services, { loaders: defaultLoaders({ offline: true }), port: 0, log: (l) => void logged.push(l), inference: { workerThreads: false } });
  await server.loaded();
}, 60_000);
afterAll(() => server?.close());

const series = Array.from({ length: 28 }, (_, t) => 10 + [3, 1, 0, -1, -2, -1, 0][t % 7]);
const body = (model: string) => ({
  model,
  inputs: [{ type: 'univariate_time_series', name: 's', series, frequency: 'D', start_timestamp: '2024-01-01T00:00:00Z' }],
  options: { horizon: 7 },
});

describe('serve: an arg the model would not use', () => {
  it.each([
    ['chronos', 'season', /^--season is used only by the baselines --model_id=seasonal-naive, theta, auto-ets, mstl, auto-arima and stat-ensemble; model "amazon\/chronos-bolt-small" does not use it: remove the arg or change --model_id; --max_context is used only by the baseline --model_id=auto-ets;/],
    ['theta', 'seasonal_periods', /^--seasonal_periods is used only by the baseline --model_id=mstl; model "theta" does not use it/],
    ['naive', 'season', /^--season is used only by the baselines .*; model "naive" does not use it/],
    ['both', 'season', /^--season with --seasonal_periods: mstl takes its periods from --seasonal_periods, not --season; set only one/],
    ['int8', 'onnx_variant', /^--onnx_variant is used only by token-classification models/],
    ['typo', 'model_id', /^--model_id=baseline\/… names no baseline; did you mean baseline\/theta\?/],
    ['bert', 'season', /^--season is used only by the baselines .*; model ".*\/model" does not use it/],
  ])('%s fails its load once, naming --%s', async (name, arg, message) => {
    const state = server.models().find((m) => m.service === name);
    expect(state).toMatchObject({ ready: false, reason: expect.stringMatching(message) });
    expect(logged.filter((l) => l.includes(`service default/${name}:`))).toEqual([expect.stringMatching(new RegExp(`attempt 1 of \\d+, giving up\\): --${arg}`))]);
    if (name !== 'bert') {
      const r = await http(server.url, '/v1/timeseries/forecast', { body: body(name), headers: { host: `${name}.default.example.com` } });
      expect(r.status).toBe(503);
      expect((r.json() as { error: { message: string } }).error.message).toContain(`--${arg}`);
    }
  });

  it('refuses an arg that needs a value given bare', async () => {
    expect(server.models().find((m) => m.service === 'bare')).toMatchObject({ ready: false, reason: expect.stringContaining('--season needs a value (--season=…)') });
    const r = await http(server.url, '/v1/timeseries/forecast', { body: body('bare'), headers: { host: 'bare.default.example.com' } });
    // a manifest that fails has no task: the forecast route answers its reason, as V1/V2 do
    expect(r.status).toBe(503);
    expect(r.text).toContain('--season needs a value');
  });

  it('serves the same arg on a model that uses it', async () => {
    const r = await http(server.url, '/v1/timeseries/forecast', { body: body('good'), headers: { host: 'good.default.example.com' } });
    expect(r.status, r.text).toBe(200);
    expect(server.models().find((m) => m.service === 'good')).toMatchObject({ ready: true });
    expect(logged.filter((l) => l.includes('service good'))).toEqual([]);
  });

  it('loads the folder --model_dir names without --model_id, and reports it ignored next to --model_id', async () => {
    expect(server.models().find((m) => m.service === 'dir')).toMatchObject({ ready: true });
    const r = await http(server.url, '/v1/models/dir:predict', { body: { instances: ['Wolfgang lives in Berlin'] }, headers: { host: 'dir.default.example.com' } });
    expect(r.status, r.text).toBe(200);
    expect((r.json() as { predictions: number[][][] }).predictions[0][0].length).toBeGreaterThan(2);
    expect(logged.filter((l) => l.includes('service shadow'))).toEqual([
      'warning: service shadow: runtime arg --model_dir was ignored: --model_id names the model (--model_dir is read only without --model_id, as in KServe)',
    ]);
  });

  it('serves a forecaster with KServe\'s token-classification args (and a baseline with --model_revision), warning that they were ignored', async () => {
    const warnings = [
      'runtime arg --disable_lower_case applies to token classification only and was ignored by this forecasting model',
      'runtime arg --max_length applies to token classification only and was ignored by this forecasting model',
      'runtime arg --model_revision was ignored: the seasonal-naive baseline is built in, not fetched from the hub',
    ];
    expect(logged.filter((l) => l.includes('service kserve'))).toEqual(warnings.map((w) => `warning: service kserve: ${w}`));
    const state = server.models().find((m) => m.service === 'kserve');
    expect(state).toMatchObject({ ready: true, warnings });
    expect(state?.status.conditions).toContainEqual(expect.objectContaining({ type: 'Ready', status: 'True', reason: 'IgnoredRuntimeArgs' }));
    const r = await http(server.url, '/v1/timeseries/forecast', { body: body('kserve'), headers: { host: 'kserve.default.example.com' } });
    expect(r.status, r.text).toBe(200);
  });
});
