import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { readCsv } from './csv.js';
import { wideFrameToInputs } from './wide-frame-to-inputs.js';

describe('wideFrameToInputs', () => {
  it('reads the real EU stock markets frame (no dates) as four series or one multivariate series', async () => {
    const df = await readCsv(join(process.cwd(), 'datasets/eu_stock_markets.csv'));
    const columns = ['DAX', 'SMI', 'CAC', 'FTSE'];
    const uni = wideFrameToInputs(df, { columns, frequency: 'day', start: '1991-07-01' });
    expect(uni.map((i) => [i.name, i.series.length, i.start_timestamp])).toEqual(columns.map((c) => [c, 1860, '1991-07-01T00:00:00Z']));
    const [multi] = wideFrameToInputs(df, { columns, frequency: 'D', multivariate: true, name: 'eu' });
    expect(multi).toMatchObject({ name: 'eu', type: 'multivariate_time_series', variables: columns, frequency: 'day' });
    expect(multi.series[0]).toEqual([1628.75, 1678.1, 1772.8, 2443.6]);
    expect(() => wideFrameToInputs(df, { columns })).toThrow(ValidationError);
  });

  it('uses a timestamp column: one series per column, gaps and missing cells as null', () => {
    const rows = [
      { timestamp: '2024-01-03', a: 3, b: null },
      { timestamp: '2024-01-01', a: 1, b: 10 },
      { timestamp: '2024-01-04', a: 4, b: 40 },
    ];
    expect(wideFrameToInputs(rows).map((i) => [i.name, i.frequency, i.series])).toEqual([
      ['a', 'day', [1, null, 3, 4]],
      ['b', 'day', [10, null, null, 40]],
    ]);
    expect(wideFrameToInputs(rows, { multivariate: true })[0].series).toEqual([[1, 10], [null, null], [3, null], [4, 40]]);
  });
});
