import { tableFromArrays, vectorFromArray, Table, TimestampMillisecond } from 'apache-arrow';
import { DataFrame } from 'danfojs-node';
import { describe, expect, it } from 'vitest';
import { frameHtml } from '../../plot/frame-html.js';
import { isInferkitError } from '../../errors.js';
import { toColumns, toFrame } from '../columns.js';
import { toCsv } from '../csv.js';
import { forecastToFrame } from '../forecast-to-frame.js';
import { frameToInputs } from '../frame-to-inputs.js';
import { Frame, isFrame } from './frame.js';

const rows = [
  { id: 'a', timestamp: '2024-01-01', value: 1 },
  { id: 'a', timestamp: '2024-01-02', value: 2 },
  { id: 'a', timestamp: '2024-01-03', value: 3 },
];

describe('Frame', () => {
  it('keeps columns in order; shape, column, rows, head/tail, select, filter and concat behave like pandas', () => {
    const f = Frame.fromRows(rows);
    expect([f.columns, f.shape, f.length]).toEqual([['id', 'timestamp', 'value'], [3, 3], 3]);
    expect(f.column('value')).toEqual([1, 2, 3]);
    expect(f.values[1]).toEqual(['a', '2024-01-02', 2]);
    expect(f.toRows()).toEqual(rows);
    expect(f.head(2).column('value')).toEqual([1, 2]);
    expect(f.tail(1).toRows()).toEqual([rows[2]]);
    expect(f.select('value', 'id').columns).toEqual(['value', 'id']);
    expect(f.filter((r) => (r.value as number) > 1).column('timestamp')).toEqual(['2024-01-02', '2024-01-03']);
    const both = Frame.concat([f.head(1), Frame.fromRows([{ id: 'b', mean: 9 }])]);
    expect(both.toRows()).toEqual([{ id: 'a', timestamp: '2024-01-01', value: 1, mean: null }, { id: 'b', timestamp: null, value: null, mean: 9 }]);
  });

  it('an empty frame keeps its columns; a missing column or ragged arrays throw naming the columns', () => {
    expect(Frame.fromRows([], ['id', 'mean']).shape).toEqual([0, 2]);
    const err = (() => {
      try {
        Frame.fromRows(rows).column('y');
      } catch (e) {
        return e;
      }
    })();
    expect(isInferkitError(err) && err.message).toBe('no column "y"; columns are id, timestamp, value');
    expect(() => Frame.fromColumns({ a: [1, 2], b: [1] })).toThrow('column "b" has 1 values, "a" has 2');
  });

  it('prints as a text table and renders as an HTML table with its shape', () => {
    const f = Frame.fromRows(rows);
    expect(String(f)).toBe(['   id   timestamp  value', '0   a  2024-01-01      1', '1   a  2024-01-02      2', '2   a  2024-01-03      3', '[3 rows × 3 columns]'].join('\n'));
    const long = Frame.fromColumns({ x: Array.from({ length: 100 }, (_, i) => i) });
    expect(String(long)).toContain('…  (80 more rows)\n95  95');
    const html = frameHtml(f);
    expect(html).toContain('<th style="text-align:right;padding:2px 8px;border-bottom:1px solid #999">timestamp</th>');
    expect(html).toContain('3 rows × 3 columns');
  });

  it('converts to a danfojs DataFrame (danfojs is installed here) with the same columns and cells', async () => {
    const df = (await Frame.fromRows(rows).toDanfo()) as DataFrame;
    expect(df).toBeInstanceOf(DataFrame);
    expect([df.columns, df.shape, df.column('value').values]).toEqual([['id', 'timestamp', 'value'], [3, 3], [1, 2, 3]]);
    expect(((await Frame.fromRows([], ['a']).toDanfo()) as DataFrame).columns).toEqual(['a']);
  });

  it('is what forecastToFrame returns, and is still known as a Frame when branded by another copy of the module', () => {
    const out = forecastToFrame([{ type: 'univariate_time_series', name: 'a', mean_forecast: [1, 2], start_timestamp: '2024-01-04T00:00:00Z', frequency: 'D' }]);
    expect(isFrame(out)).toBe(true);
    expect(isFrame(Object.assign(Object.create(null) as object, { [Symbol.for('inferkit.Frame')]: true }))).toBe(true);
    expect(isFrame(rows)).toBe(false);
  });
});

describe('every function that takes a frame takes rows, an inferkit Frame, a danfojs DataFrame and an Arrow Table alike', () => {
  const expected = frameToInputs(rows);

  it('danfojs DataFrame and inferkit Frame', () => {
    expect(frameToInputs(new DataFrame(rows))).toEqual(expected);
    expect(frameToInputs(Frame.fromRows(rows))).toEqual(expected);
  });

  it('an Arrow table with string timestamps, and one with Arrow timestamps, 32-bit ints and nulls', () => {
    expect(frameToInputs(tableFromArrays({ id: ['a', 'a', 'a'], timestamp: rows.map((r) => r.timestamp), value: new Float64Array([1, 2, 3]) }))).toEqual(expected);
    const ts = vectorFromArray(
      rows.map((r) => new Date(`${r.timestamp}T00:00:00Z`)),
      new TimestampMillisecond(),
    );
    const table = new Table({ id: vectorFromArray(['a', 'a', 'a']), timestamp: ts, value: vectorFromArray([1, null, 3]) });
    expect(toColumns(table).get('timestamp')?.[0]).toEqual(new Date('2024-01-01T00:00:00Z'));
    expect(frameToInputs(table)[0].series).toEqual([1, null, 3]);
    expect(frameToInputs(table)[0].start_timestamp).toBe(expected[0].start_timestamp);
  });

  it('toCsv and toFrame read Arrow tables too', () => {
    const table = tableFromArrays({ id: ['x', 'y'], v: new Int32Array([1, 2]) });
    expect(toCsv(table)).toBe('id,v\nx,1\ny,2\n');
    expect(toFrame(table).toRows()).toEqual([{ id: 'x', v: 1 }, { id: 'y', v: 2 }]);
  });
});
