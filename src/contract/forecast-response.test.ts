import { describe, expect, it } from 'vitest';
import { fixtureObject, loadFixture, validationError } from '../../test/fixtures/contract/load.js';
import { ForecastResponseSchema, TimeSeriesForecastSchema } from './forecast.js';
import { parseContract } from './parse.js';

type Obj = Record<string, unknown>;

describe('ForecastResponseSchema', () => {
  it('parses a univariate response without quantiles (mean_forecast only)', () => {
    const res = parseContract(ForecastResponseSchema, loadFixture('forecast-response-univariate.json'));
    const content = res.outputs[0].content[0];
    expect(content.mean_forecast).toEqual([115.2, 126.9, 141.3]);
    expect(content.quantiles).toBeUndefined();
    expect(res.error).toBeNull();
    expect(res.usage).toEqual({ prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 });
  });

  it('parses a multivariate response with quantile keys as strings; extra fields kept', () => {
    const res = parseContract(ForecastResponseSchema, loadFixture('forecast-response-multivariate-quantiles.json'));
    const content = res.outputs[0].content[0];
    expect(Object.keys(content.quantiles ?? {})).toEqual(['0.1', '0.5', '0.9']);
    expect(content.quantiles?.['0.9'][1]).toEqual([24.4, 43.8]);
    expect(res).toMatchObject({ metadata: { request_id: 'req-002' } });
  });

  it('produces status in lower case however it was written, per output and overall', () => {
    const res = parseContract(ForecastResponseSchema, loadFixture('forecast-response-partial.json'));
    expect(res.status).toBe('partial');
    expect(res.outputs.map((o) => o.status)).toEqual(['completed', 'error']);
    expect(res.outputs[1].error).toMatchObject({ code: 'model_error', param: 'inputs[1].series' });
    expect(res.outputs[0].content[0].frequency).toBe('D'); // echoed as the server wrote it
  });

  it('parses a request-level error response', () => {
    const res = parseContract(ForecastResponseSchema, loadFixture('forecast-response-error.json'));
    expect(res).toMatchObject({ status: 'error', outputs: [], error: { code: 'invalid_horizon', param: 'options.horizon' } });
  });

  it('names bad fields: output type, status, usage, error shape', () => {
    const res = fixtureObject('forecast-response-univariate.json');
    const out = (res.outputs as Obj[])[0];
    out.type = 'forecast';
    out.status = 'finished';
    res.usage = { prompt_tokens: 2, completion_tokens: -1, total_tokens: 1 };
    res.error = { message: 'x' };
    const paths = validationError(() => parseContract(ForecastResponseSchema, res)).issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining(['outputs[0].type', 'outputs[0].status', 'usage.completion_tokens', 'error.code', 'error.type']),
    );
  });

  it('requires start_timestamp on a forecast and names a bad quantile path', () => {
    const content = (((fixtureObject('forecast-response-multivariate-quantiles.json').outputs as Obj[])[0].content as Obj[])[0]);
    delete content.start_timestamp;
    (content.quantiles as Record<string, unknown[]>)['0.5'][1] = 'x';
    const paths = validationError(() => parseContract(TimeSeriesForecastSchema, content)).issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['start_timestamp']));
    expect(paths.some((p) => p.startsWith('quantiles["0.5"]'))).toBe(true);
  });
});
