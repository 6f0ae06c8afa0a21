import { DataFrame } from 'danfojs-node';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { forecastFigure } from '../plot/forecast-figure.js';
import { localForecaster } from '../protocol/forecast/local-forecaster.js';
import { seasonalNaive } from '../runtime/forecast/seasonal-naive.js';
import { toColumns } from './columns.js';
import { parseCsv, toCsv } from './csv.js';
import { forecastToFrame, inputsToFrame } from './forecast-to-frame.js';
import { frameToInputs } from './frame-to-inputs.js';
import { zoneOffsetMinutes, zonedWallToUtc } from './time-zone.js';

/** Berlin hourly instants from `startUtc`, written with Berlin's offset at each instant. */
function berlinHours(startUtc: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const utc = Date.parse(startUtc) + i * 3_600_000;
    const off = zoneOffsetMinutes(utc, 'Europe/Berlin');
    return `${new Date(utc + off * 60_000).toISOString().slice(0, 19)}+0${off / 60}:00`;
  });
}

describe('zone arithmetic (Intl)', () => {
  it('knows Berlin offsets around DST and maps wall clocks to instants', () => {
    expect(zoneOffsetMinutes(Date.parse('2024-03-31T00:59:59Z'), 'Europe/Berlin')).toBe(60);
    expect(zoneOffsetMinutes(Date.parse('2024-03-31T01:00:00Z'), 'Europe/Berlin')).toBe(120);
    expect(new Date(zonedWallToUtc(Date.parse('2024-07-01T12:00:00Z'), 'Europe/Berlin')).toISOString()).toBe('2024-07-01T10:00:00.000Z');
  });
});

describe('time zones through frameToInputs → forecast → forecastToFrame → CSV → chart', () => {
  it('keeps offsets: a Berlin hourly series comes back in Berlin time, across the spring DST change with timeZone', async () => {
    const stamps = berlinHours('2024-03-28T23:00:00Z', 48); // Berlin midnight of Mar 29 … Mar 30 23:00, all +01:00
    expect(stamps[0]).toBe('2024-03-29T00:00:00+01:00');
    const df = new DataFrame({ id: stamps.map(() => 'berlin'), timestamp: stamps, value: stamps.map((_, i) => 100 + (i % 24)) });
    const fixed = frameToInputs(df);
    expect(fixed[0]).toMatchObject({ frequency: 'hour', start_timestamp: '2024-03-29T00:00:00+01:00' });
    const zoned = frameToInputs(df, { timeZone: 'Europe/Berlin' });
    expect(zoned[0]).toMatchObject({ start_timestamp: '2024-03-29T00:00:00+01:00', time_zone: 'Europe/Berlin' });

    const forecaster = localForecaster(seasonalNaive());
    const response = await forecaster.forecast({ model: forecaster.name, inputs: zoned, options: { horizon: 5, quantiles: [0.1, 0.9] } });
    expect(response.outputs[0].content[0]).toMatchObject({ start_timestamp: '2024-03-31T00:00:00+01:00', time_zone: 'Europe/Berlin' });
    const out = forecastToFrame(response);
    // 02:00 does not exist in Berlin on Mar 31: 01:00+01:00 is followed by 03:00+02:00.
    expect(toColumns(out).get('timestamp')).toEqual([
      '2024-03-31T00:00:00+01:00', '2024-03-31T01:00:00+01:00', '2024-03-31T03:00:00+02:00', '2024-03-31T04:00:00+02:00', '2024-03-31T05:00:00+02:00',
    ]);
    // Without a zone the offset of the start is kept (same instants, fixed +01:00).
    expect(toColumns(forecastToFrame(response.outputs[0].content.map(({ time_zone: _, ...f }) => f))).get('timestamp')?.[2]).toBe('2024-03-31T02:00:00+01:00');

    // CSV round trip: offsets survive as text, and the frame reads back on the same grid.
    const back = parseCsv(toCsv(out));
    expect(back.map((r) => r.timestamp)).toEqual(toColumns(out).get('timestamp'));
    expect(frameToInputs(back, { valueColumns: 'mean' })[0]).toMatchObject({ frequency: 'hour', start_timestamp: '2024-03-31T00:00:00+01:00', series: response.outputs[0].content[0].mean_forecast });

    // The chart's traces carry the offsets (Plotly shows the clock as written).
    const fig = forecastFigure(inputsToFrame(zoned), out, { historyTail: 3 });
    const xs = fig.data.map((t) => t.x as string[]);
    expect(xs.flat().every((x) => /[+-]0[12]:00$/.test(x))).toBe(true);
    expect(xs.find((x) => x.includes('2024-03-31T03:00:00+02:00'))).toBeDefined();
    expect(xs.flat()).toContain('2024-03-30T23:00:00+01:00');
  });

  it('reads naive timestamps as the zone\'s local time; daily series stay at local midnight; unknown zones are named', () => {
    const naive = frameToInputs([{ timestamp: '2024-10-26 00:00', value: 1 }, { timestamp: '2024-10-27 00:00', value: 2 }, { timestamp: '2024-10-28 00:00', value: 3 }], { timeZone: 'Europe/Berlin' });
    expect(naive[0]).toMatchObject({ frequency: 'day', start_timestamp: '2024-10-26T00:00:00+02:00', series: [1, 2, 3] });
    const rows = forecastToFrame([{ type: 'univariate_time_series', name: 'series', mean_forecast: [1, 2], frequency: 'day', start_timestamp: '2024-10-26T00:00:00+02:00' }], { timeZone: 'Europe/Berlin' });
    expect(toColumns(rows).get('timestamp')).toEqual(['2024-10-26T00:00:00+02:00', '2024-10-27T00:00:00+02:00']);
    const later = forecastToFrame([{ type: 'univariate_time_series', name: 's', mean_forecast: [1, 2, 3], frequency: 'day', start_timestamp: '2024-10-26T00:00:00+02:00' }], { timeZone: 'Europe/Berlin' });
    expect(toColumns(later).get('timestamp')?.[2]).toBe('2024-10-28T00:00:00+01:00');
    // Clocks go back at 03:00 on Oct 27: local 02:00 comes twice, and reads as two consecutive hours.
    const fallBack = ['00:00', '01:00', '02:00', '02:00', '03:00'].map((h, i) => ({ timestamp: `2024-10-27 ${h}`, value: i }));
    const [night] = frameToInputs(fallBack, { timeZone: 'Europe/Berlin' });
    expect(night).toMatchObject({ frequency: 'hour', start_timestamp: '2024-10-27T00:00:00+02:00', series: [0, 1, 2, 3, 4] });
    expect(toColumns(inputsToFrame([night])).get('timestamp')).toEqual([
      '2024-10-27T00:00:00+02:00', '2024-10-27T01:00:00+02:00', '2024-10-27T02:00:00+02:00', '2024-10-27T02:00:00+01:00', '2024-10-27T03:00:00+01:00',
    ]);
    expect(() => frameToInputs([{ timestamp: '2024-01-01', value: 1 }], { timeZone: 'Mars/Olympus' })).toThrow(ValidationError);
    expect(() => frameToInputs([{ timestamp: '2024-01-01', value: 1 }], { timeZone: 'Mars/Olympus' })).toThrow(/timeZone: unknown time zone "Mars\/Olympus"/);
  });
});
