import { describe, expect, it } from 'vitest';
import { fixtureObject, loadFixture, validationError } from '../../test/fixtures/contract/load.js';
import { ForecastRequestSchema, TimeSeriesInputSchema } from './forecast.js';
import { parseContract } from './parse.js';

type Obj = Record<string, unknown>;
const uni = (): Obj => fixtureObject('forecast-request-univariate.json');
const multi = (): Obj => fixtureObject('forecast-request-multivariate-quantiles.json');
const inputs = (req: Obj): Obj[] => req.inputs as Obj[];
const paths = (req: unknown): string[] =>
  validationError(() => parseContract(ForecastRequestSchema, req)).issues.map((i) => i.path);

describe('ForecastRequestSchema: interface examples', () => {
  it('parses a univariate request without quantiles; metadata is kept', () => {
    const req = parseContract(ForecastRequestSchema, loadFixture('forecast-request-univariate.json'));
    expect(req.inputs[0]).toMatchObject({ type: 'univariate_time_series', name: 'sales', frequency: 'month' });
    expect(req.inputs[0].series).toHaveLength(12);
    expect(req.options.quantiles).toBeUndefined();
    expect(req.metadata).toEqual({ request_id: 'req-001', user: 'analyst' });
  });

  it('parses a multivariate request with quantiles, normalising H → hour and keeping every extra field', () => {
    const req = parseContract(ForecastRequestSchema, loadFixture('forecast-request-multivariate-quantiles.json'));
    const input = req.inputs[0];
    expect(input.frequency).toBe('hour');
    expect(input.series[3]).toEqual([23.1, null]);
    expect(input).toMatchObject({ unit: 'celsius/percent' });
    expect(req.options).toEqual({ horizon: 2, quantiles: [0.1, 0.5, 0.9], temperature: 0 });
    expect(req.other_properties).toEqual({ priority: 'low' });
    expect(req).toMatchObject({ metadata: { request_id: 'req-002' } });
  });

  it('keeps unknown top-level keys', () => {
    expect(parseContract(ForecastRequestSchema, { ...uni(), client: 'nb' })).toMatchObject({ client: 'nb' });
  });

  it.each(['m', 'Month', 'MONTH', 'M'])('accepts frequency %s as month', (f) => {
    const req = uni();
    inputs(req)[0].frequency = f;
    expect(parseContract(ForecastRequestSchema, req).inputs[0].frequency).toBe('month');
  });
});

describe('ForecastRequestSchema: invariants name the field', () => {
  it('input names must be unique', () => {
    const req = multi();
    req.inputs = [inputs(req)[0], { ...inputs(req)[0] }, { ...inputs(req)[0], name: 'other' }];
    const err = validationError(() => parseContract(ForecastRequestSchema, req, 'forecast request'));
    expect(err.message).toMatchInlineSnapshot(
      `"forecast request: inputs[1].name: duplicate name "temperature_humidity" (also inputs[0].name); names must be unique"`,
    );
  });

  it('a univariate series is a list of numbers', () => {
    const req = uni();
    (inputs(req)[0].series as unknown[])[4] = [1, 2];
    const err = validationError(() => parseContract(ForecastRequestSchema, req));
    expect(err.issues).toEqual([
      { path: 'inputs[0].series[4]', message: 'expected a finite number or null, got a list (multivariate data in a univariate_time_series)' },
    ]);
  });

  it('a multivariate series is a rectangular list of lists, time first', () => {
    const ragged = multi();
    (inputs(ragged)[0].series as unknown[])[2] = [22.4];
    expect(() => parseContract(ForecastRequestSchema, ragged)).toThrow(
      'inputs[0].series[2]: expected 2 variables like series[0], got 1 (series must be rectangular)',
    );
    const flat = multi();
    inputs(flat)[0].series = [1, 2, 3];
    expect(paths(flat)).toEqual(['inputs[0].series[0]']);
    const mixed = multi();
    (inputs(mixed)[0].series as unknown[])[1] = 5;
    expect(paths(mixed)).toEqual(['inputs[0].series[1]']);
  });

  it('values must be finite numbers (or null for missing)', () => {
    const req = uni();
    (inputs(req)[0].series as unknown[])[5] = 'NaN';
    (inputs(req)[0].series as unknown[])[7] = Number.POSITIVE_INFINITY;
    expect(paths(req)).toEqual(['inputs[0].series[5]', 'inputs[0].series[7]']);
    const m = multi();
    ((inputs(m)[0].series as unknown[][])[1])[1] = '39.8';
    expect(() => parseContract(ForecastRequestSchema, m)).toThrow('inputs[0].series[1][1]: expected a finite number or null, got "39.8"');
  });

  it('an empty series is rejected', () => {
    const req = uni();
    inputs(req)[0].series = [];
    expect(paths(req)).toEqual(['inputs[0].series']);
  });

  it.each([[0], [-3], [2.5], ['3']])('horizon %s is rejected at options.horizon', (h) => {
    const req = uni();
    (req.options as Obj).horizon = h;
    expect(paths(req)).toEqual(['options.horizon']);
  });

  it.each([[0], [1], [1.2], [-0.1]])('quantile %s is outside (0, 1)', (q) => {
    const req = multi();
    (req.options as Obj).quantiles = [0.5, q];
    const err = validationError(() => parseContract(ForecastRequestSchema, req));
    expect(err.issues).toEqual([{ path: 'options.quantiles[1]', message: 'expected a quantile level in (0, 1)' }]);
  });

  it('unknown enums and bad timestamps are named', () => {
    const req = uni();
    Object.assign(inputs(req)[0], { type: 'scalar', frequency: 'fortnight', start_timestamp: '2024-02-30' });
    expect(paths(req)).toEqual(
      expect.arrayContaining(['inputs[0].type', 'inputs[0].frequency', 'inputs[0].start_timestamp']),
    );
  });

  it('required fields are named when missing', () => {
    expect(paths({ inputs: [] })).toEqual(expect.arrayContaining(['model', 'inputs', 'options']));
  });
});

describe('TimeSeriesInputSchema', () => {
  it('accepts the type in any letter case and timestamps with offsets and fractions', () => {
    const input = parseContract(TimeSeriesInputSchema, {
      type: 'UNIVARIATE_TIME_SERIES',
      name: 'x',
      series: [1, null, 3],
      frequency: 'd',
      start_timestamp: '2024-01-31T12:00:00.250+02:00',
    });
    expect(input).toMatchObject({ type: 'univariate_time_series', frequency: 'day' });
  });
});
