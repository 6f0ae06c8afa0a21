import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { advanceTimestamp } from '../protocol/forecast/advance-timestamp.js';
import { forecastToRows, inputsToRows } from './forecast-to-frame.js';
import { frameToInputs } from './frame-to-inputs.js';
import { inferFrequency } from './infer-frequency.js';
import { parseTimestamp, type ParsedTimestamp } from './timestamps.js';

const parsed = (stamps: string[]): ParsedTimestamp[] => stamps.map((s) => parseTimestamp(s) as ParsedTimestamp);
/** `n` timestamps `stepMinutes` apart from `start` (UTC). */
const every = (start: string, stepMinutes: number, n: number): string[] =>
  Array.from({ length: n }, (_, i) => new Date(Date.parse(start) + i * stepMinutes * 60_000).toISOString().replace('.000Z', 'Z'));

describe('inferFrequency with multiples', () => {
  it.each([
    [30, '30min'], [15, '15min'], [120, '2h'], [90, '90min'], [60, 'hour'], [1440 * 14, '2W'], [0.5, '30s'],
  ])('%s-minute spacing → %s', (minutes, want) => {
    expect(inferFrequency(parsed(every('2024-01-01T00:15:00Z', minutes, 10)))).toMatchObject({ frequency: want, positions: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] });
  });

  it('finds calendar multiples and month-end anchors', () => {
    expect(inferFrequency(parsed(['2024-01-15', '2024-03-15', '2024-05-15']))).toMatchObject({ frequency: '2M' });
    expect(inferFrequency(parsed(['2019-02-28', '2019-03-31', '2019-04-30']))).toMatchObject({ frequency: 'ME', positions: [0, 1, 2] });
    expect(inferFrequency(parsed(['2019-02-28', '2019-05-31', '2019-08-31']))).toMatchObject({ frequency: 'QE' });
    // Day 31 clamped is the month end already: the contract's plain month says the same thing.
    expect(inferFrequency(parsed(['2024-01-31', '2024-02-29', '2024-03-31']))).toMatchObject({ frequency: 'month' });
    expect(inferFrequency(parsed(['2019-02-28', '2019-03-28']))).toMatchObject({ frequency: 'month' });
  });
});

describe('frameToInputs with sub-daily multiples', () => {
  it('reads a half-hourly frame as 30min, gaps as null, and suggests 30min (never "minute") for sparse data', () => {
    const stamps = every('2024-01-01T00:00:00Z', 30, 6);
    const rows = stamps.filter((_, i) => i !== 3).map((timestamp, i) => ({ id: 'load', timestamp, value: i }));
    expect(frameToInputs(rows)[0]).toMatchObject({ frequency: '30min', series: [0, 1, 2, null, 3, 4] });
    const sparse = ['2024-01-01T00:00:00Z', '2024-01-01T00:30:00Z', '2024-01-01T05:00:00Z', '2024-01-01T09:30:00Z'].map((timestamp, i) => ({ id: 's', timestamp, value: i }));
    let error: unknown;
    try {
      frameToInputs(sparse);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    const message = (error as ValidationError).issues[0].message;
    expect(message).toContain('pass `frequency: "30min"`');
    expect(message).not.toContain('"minute"');
    expect(frameToInputs(sparse, { frequency: '30min' })[0].series).toHaveLength(20);
    // Gaps of 1 h and 1.5 h lie on no hourly grid: the suggestion is the grid they share.
    const mixed = ['2024-01-01T00:00:00Z', '2024-01-01T01:00:00Z', '2024-01-01T02:30:00Z', '2024-01-01T12:00:00Z'].map((timestamp, i) => ({ id: 'm', timestamp, value: i }));
    expect(() => frameToInputs(mixed)).toThrow(/pass `frequency: "30min"`/);
  });

  it('upgrades a given plain month to ME when the data only fit month ends, and steps stay on month ends', () => {
    const stamps = Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2019, 2 + i, 0)).toISOString().slice(0, 10));
    expect(stamps.slice(0, 2)).toEqual(['2019-02-28', '2019-03-31']);
    const rows = stamps.map((timestamp, i) => ({ id: 'me', timestamp, value: i }));
    const [input] = frameToInputs(rows, { frequency: 'month' });
    expect([input.frequency, input.start_timestamp]).toEqual(['ME', '2019-02-28T00:00:00Z']);
    expect(inputsToRows([input]).at(-1)?.timestamp).toBe('2021-07-31T00:00:00Z');
    const start = advanceTimestamp(input.start_timestamp as string, input.frequency, input.series.length);
    expect(start).toBe('2021-08-31T00:00:00Z');
    const rowsOut = forecastToRows([{ type: 'univariate_time_series', name: 'me', mean_forecast: [1, 2, 3], frequency: 'ME', start_timestamp: start }]);
    expect(rowsOut.map((r) => r.timestamp)).toEqual(['2021-08-31T00:00:00Z', '2021-09-30T00:00:00Z', '2021-10-31T00:00:00Z']);
  });
});
