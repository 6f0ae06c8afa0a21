import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remote, type RemoteModel } from '../../src/client/remote.js';
import type { InferenceService } from '../../src/contract/inference-service.js';
import { HttpError } from '../../src/errors.js';
import { serve, type RunningServer } from '../../src/server/serve.js';

const naive: InferenceService = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'naive' },
  spec: { predictor: { model: { modelFormat: { name: 'huggingface' }, args: ['--model_name=naive', '--model_id=seasonal-naive', '--task=time_series_forecast'] } } },
};
const inputs = [{ type: 'univariate_time_series', name: 'a', series: [1, 2, 3], frequency: 'D' }];

let server: RunningServer;
let model: RemoteModel;

beforeAll(async () => {
  server = await serve([naive], { port: 0, host: '127.0.0.1' });
  await server.loaded();
  model = remote({ baseUrl: server.url }, { modelName: 'naive', retries: 0 });
});
afterAll(() => server.close());

/** What a notebook's `catch (e)` sees of a rejected call. */
async function caught(call: () => Promise<unknown>): Promise<HttpError> {
  try {
    await call();
  } catch (e) {
    expect(e).toBeInstanceOf(HttpError);
    return e as HttpError;
  }
  throw new Error('expected the call to be rejected');
}

describe('HttpError.param from a real inferkit server', () => {
  it('names the field the forecast API blamed (error.param of the body)', async () => {
    const horizon = await caught(() => model.forecast({ model: 'naive', inputs, options: { horizon: 0 } }));
    expect([horizon.status, horizon.code, horizon.param]).toEqual([400, 'invalid_request', 'options.horizon']);
    expect(horizon.body).toMatchObject({ status: 'error', error: { code: 'invalid_horizon', param: 'options.horizon' } });

    const quantile = await caught(() => model.forecast({ model: 'naive', inputs, options: { horizon: 1, quantiles: [1.5] } }));
    expect(quantile.param).toBe('options.quantiles[0]');

    const series = await caught(() => model.forecast({ model: 'naive', inputs: [{ ...inputs[0], series: [1, 'x'] }], options: { horizon: 1 } }));
    expect([series.status, series.param]).toEqual([400, 'inputs[0].series[1]']);

    const unknown = await caught(() => model.forecast({ model: 'nope', inputs, options: { horizon: 1 } }));
    expect([unknown.status, unknown.code, unknown.param]).toEqual([404, 'model_not_found', 'model']);
  });

  it('leaves param undefined for KServe\'s { error: "<message>" } bodies, which name no field', async () => {
    const v1 = await caught(() => model.predictV1({ instances: ['hi'] }));
    expect(v1.body).toEqual({ error: expect.stringContaining('is a forecasting model') });
    expect(v1.param).toBeUndefined();
  });
});
