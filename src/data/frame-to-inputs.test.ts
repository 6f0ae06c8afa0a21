import { join } from 'node:path';
import { DataFrame } from 'danfojs-node';
import { describe, expect, it } from 'vitest';
import { TimeSeriesInputSchema } from '../contract/forecast.js';
import { ValidationError } from '../errors.js';
import { readCsv } from './csv.js';
import { frameToInputs } from './frame-to-inputs.js';

const rows = (id: string, stamps: string[], values: (number | null)[]) => stamps.map((timestamp, i) => ({ id, timestamp, value: values[i] }));

function errorOf(f: () => unknown): ValidationError {
  try {
    f();
  } catch (e) {
    if (e instanceof ValidationError) {
      return e;
    }
    throw e;
  }
  throw new ValidationError([{ path: '', message: 'expected an error' }]);
}

describe('frameToInputs', () => {
  it('reads the real classic series: frequencies inferred, starts set, inputs valid on the wire', async () => {
    const inputs = frameToInputs(await readCsv(join(process.cwd(), 'datasets/classic_series.csv')));
    expect(inputs).toHaveLength(12);
    const by = Object.fromEntries(inputs.map((i) => [i.name, i]));
    expect([by.AirPassengers.frequency, by.AirPassengers.series.length, by.AirPassengers.start_timestamp]).toEqual(['month', 144, '1949-01-01T00:00:00Z']);
    expect([by.UKgas.frequency, by.austres.frequency, by.Nile.frequency, by.lynx.series.length]).toEqual(['quarter', 'quarter', 'year', 114]);
    expect(by.AirPassengers.series.slice(0, 3)).toEqual([112, 118, 132]);
    for (const i of inputs) {
      expect(TimeSeriesInputSchema.safeParse(i).success).toBe(true);
    }
  });

  it('sorts unsorted timestamps and gives the same result from a DataFrame and from rows', () => {
    const r = rows('a', ['2024-03-01', '2024-01-01', '2024-02-01'], [3, 1, 2]);
    const fromRows = frameToInputs(r);
    expect(fromRows).toEqual([{ name: 'a', type: 'univariate_time_series', frequency: 'month', start_timestamp: '2024-01-01T00:00:00Z', series: [1, 2, 3] }]);
    expect(frameToInputs(new DataFrame(r))).toEqual(fromRows);
  });

  it('fills gaps and missing values with null', () => {
    const r = [...rows('a', ['2024-01-01', '2024-01-02', '2024-01-04', '2024-01-05', '2024-01-06'], [1, Number.NaN, 4, null, 6]), { id: 'a', timestamp: '2024-01-07', value: '' }];
    expect(frameToInputs(r)[0].series).toEqual([1, null, null, 4, null, 6, null]);
  });

  it('rejects duplicate timestamps, naming the series and the timestamp', () => {
    const e = errorOf(() => frameToInputs([...rows('ok', ['2024-01-01', '2024-01-02'], [1, 2]), ...rows('dup', ['2024-01-01', '2024-01-02', '2024-01-01T00:00:00Z'], [1, 2, 3])]));
    expect(e.issues).toEqual([{ path: 'dup', message: 'duplicate timestamp 2024-01-01T00:00:00Z' }]);
    expect(e.message).toContain('dup: duplicate timestamp 2024-01-01T00:00:00Z');
  });

  it('infers each series its own frequency and rejects irregular spacing by name', () => {
    const hourly = rows('h', ['2024-01-01T00:00Z', '2024-01-01T01:00Z', '2024-01-01T02:00Z'], [1, 2, 3]);
    const weekly = rows('w', ['2024-01-01', '2024-01-08', '2024-01-22'], [1, 2, 3]);
    expect(frameToInputs([...hourly, ...weekly]).map((i) => [i.name, i.frequency, i.series])).toEqual([
      ['h', 'hour', [1, 2, 3]],
      ['w', 'week', [1, 2, null, 3]],
    ]);
    const mixed = rows('mixed', ['2024-01-01', '2024-02-01', '2024-03-01', '2024-03-02', '2024-03-03'], [1, 2, 3, 4, 5]);
    const e = errorOf(() => frameToInputs([...hourly, ...mixed]));
    expect(e.issues.map((i) => i.path)).toEqual(['mixed']);
    expect(e.issues[0].message).toMatch(/^irregular spacing: 5 timestamps spread over 63 steps of day .*pass `frequency: "day"`/);
    // With an explicit frequency the same series is laid on the daily grid, gaps as missing.
    expect((frameToInputs(mixed, { frequency: 'D' })[0].series as (number | null)[]).filter((v) => v !== null)).toEqual([1, 2, 3, 4, 5]);
  });

  it('infers multiples of a unit, and explains off-grid timestamps with an explicit frequency', () => {
    expect(frameToInputs(rows('x', ['2024-01-01', '2024-01-03', '2024-01-05'], [1, 2, 3]))[0].frequency).toBe('2D');
    expect(errorOf(() => frameToInputs(rows('x', ['2024-01-01', '2024-01-15', '2024-02-01'], [1, 2, 3]), { frequency: 'month' })).issues[0].message).toBe(
      'timestamp 2024-01-15T00:00:00Z is not on the month grid starting 2024-01-01T00:00:00Z',
    );
  });

  it('keeps the first offset; daily local-time series stay regular across a DST change', () => {
    const local = rows('berlin', ['2024-03-30T00:00:00+01:00', '2024-03-31T00:00:00+01:00', '2024-04-01T00:00:00+02:00'], [1, 2, 3]);
    expect(frameToInputs(local)[0]).toMatchObject({ frequency: 'day', start_timestamp: '2024-03-30T00:00:00+01:00', series: [1, 2, 3] });
    const sameInstant = rows('tz', ['2024-01-01T01:00:00+01:00', '2024-01-01T00:00:00Z'], [1, 2]);
    expect(errorOf(() => frameToInputs(sameInstant)).issues[0].message).toBe('duplicate timestamp 2024-01-01T00:00:00Z');
  });

  it('recognises month ends and quarters as calendar steps', () => {
    expect(frameToInputs(rows('me', ['2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30'], [1, 2, 3, 4]))[0].frequency).toBe('month');
    expect(frameToInputs(rows('q', ['2023-02-28', '2023-05-28', '2023-08-28'], [1, 2, 3]))[0].frequency).toBe('quarter');
  });

  it('builds multivariate series from several value columns', () => {
    const r = [
      { id: 's', timestamp: '2024-01-01', a: 1, b: 10 },
      { id: 's', timestamp: '2024-01-03', a: 3, b: null },
      { id: 's', timestamp: '2024-01-02', a: 2, b: 20 },
    ];
    expect(frameToInputs(r, { valueColumns: ['a', 'b'] })[0]).toMatchObject({ type: 'multivariate_time_series', variables: ['a', 'b'], series: [[1, 10], [2, 20], [3, null]] });
  });

  it('names bad columns, timestamps and values', () => {
    expect(errorOf(() => frameToInputs([{ id: 'a', ts: '2024-01-01', value: 1 }])).message).toContain('missing column(s) "timestamp"; columns are id, ts, value');
    expect(errorOf(() => frameToInputs(rows('a', ['2024-01-01', 'soon'], [1, 2]))).issues[0]).toEqual({ path: 'a', message: 'row 1: timestamp "soon" is not an ISO 8601 date or a Date (numbers are not read as timestamps)' });
    expect(errorOf(() => frameToInputs([{ id: 'a', timestamp: '2024-01-01', value: 'n/a?' }])).issues[0].message).toBe('row 0: "value" value "n/a?" is not a number');
  });

  it('converts a thousand series', () => {
    const big = [];
    for (let s = 0; s < 1000; s++) {
      for (let d = 0; d < 60; d++) {
        big.push({ id: `s${s}`, timestamp: new Date(Date.UTC(2024, 0, 1 + d)).toISOString(), value: s + d });
      }
    }
    const inputs = frameToInputs(big);
    expect(inputs).toHaveLength(1000);
    expect(inputs[999]).toMatchObject({ name: 's999', frequency: 'day', series: expect.arrayContaining([999, 1058]) });
  });
});
