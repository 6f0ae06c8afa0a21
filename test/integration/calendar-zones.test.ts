import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remote } from '../../src/client/remote.js';
import { zoneOffsetMinutes } from '../../src/contract/zone-offset.js';
import { batchForecast } from '../../src/data/batch-forecast.js';
import { toColumns } from '../../src/data/columns.js';
import { forecastToRows } from '../../src/data/forecast-to-frame.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { isvc } from './server-http.js';

let server: RunningServer;
beforeAll(async () => {
  server = await serve([isvc('naive', { args: ['--model_id=seasonal-naive', '--task=time_series_forecast'] })], { port: 0 });
  await server.loaded();
}, 60_000);
afterAll(async () => {
  await server?.close();
});

/** `YYYY-MM-DDT00:00:00±HH:MM` local midnight of each date in `zone` (the offset that midnight has there). */
function localMidnights(dates: string[], zone: string): string[] {
  return dates.map((d) => {
    const guess = Date.parse(`${d}T00:00:00Z`);
    const off = zoneOffsetMinutes(guess - zoneOffsetMinutes(guess, zone) * 60_000, zone);
    const sign = off < 0 ? '-' : '+';
    const a = Math.abs(off);
    return `${d}T00:00:00${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
  });
}

function days(from: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10));
}

function monthEnds(year: number, month: number, n: number): string[] {
  return Array.from({ length: n }, (_, i) => new Date(Date.UTC(year, month + i, 0)).toISOString().slice(0, 10));
}

const rows = (id: string, stamps: string[]) => stamps.map((timestamp, i) => ({ id, timestamp, value: 10 + (i % 7) }));

describe('calendar steps in the series time zone (real server, remote client, frames)', () => {
  it('daily, weekly and month-end series across spring and autumn changes start at local midnight on the wire and in frames', async () => {
    const source = [
      ...rows('berlin-march', localMidnights(days('2024-03-01', 31), 'Europe/Berlin')), // ends Mar 31 (+02:00)
      ...rows('berlin-october', localMidnights(days('2024-10-01', 31), 'Europe/Berlin')), // ends Oct 31 (+01:00)
    ];
    const naive = remote({ baseUrl: server.url }, { modelName: 'naive' });
    const daily = await batchForecast(source, naive, { horizon: 3, timeZone: 'Europe/Berlin' });
    expect(daily.status).toBe('completed');
    expect(daily.forecasts.map((f) => f.start_timestamp)).toEqual(['2024-04-01T00:00:00+02:00', '2024-11-01T00:00:00+01:00']);
    expect(forecastToRows(daily.forecasts).map((r) => r.timestamp)).toEqual([
      '2024-04-01T00:00:00+02:00', '2024-04-02T00:00:00+02:00', '2024-04-03T00:00:00+02:00',
      '2024-11-01T00:00:00+01:00', '2024-11-02T00:00:00+01:00', '2024-11-03T00:00:00+01:00',
    ]);

    // New York weekly (spring forward on Mar 10) and Sydney month ends (spring forward in October).
    const weekly = rows('ny', localMidnights(['2024-02-18', '2024-02-25', '2024-03-03', '2024-03-10'], 'America/New_York'));
    const w = await batchForecast(weekly, naive, { horizon: 2, timeZone: 'America/New_York' });
    expect(forecastToRows(w.forecasts).map((r) => r.timestamp)).toEqual(['2024-03-17T00:00:00-04:00', '2024-03-24T00:00:00-04:00']);
    const sydney = rows('sydney', localMidnights(monthEnds(2024, 4, 5), 'Australia/Sydney')); // Apr 30 … Aug 31 (+10:00)
    const m = await batchForecast(sydney, naive, { horizon: 3, timeZone: 'Australia/Sydney' });
    expect(m.forecasts[0]).toMatchObject({ frequency: 'ME', start_timestamp: '2024-09-30T00:00:00+10:00' });
    expect(forecastToRows(m.forecasts).map((r) => r.timestamp)).toEqual(['2024-09-30T00:00:00+10:00', '2024-10-31T00:00:00+11:00', '2024-11-30T00:00:00+11:00']);

    // The several-model frame has the same dates.
    const both = await batchForecast(source.slice(0, 31), { a: naive, b: naive }, { horizon: 2, timeZone: 'Europe/Berlin' });
    expect(toColumns(both.frame).get('timestamp')).toEqual(['2024-04-01T00:00:00+02:00', '2024-04-02T00:00:00+02:00']);
  });

  it('keeps hourly series in absolute time across the autumn change (25 hours on Oct 27)', async () => {
    const hours = Array.from({ length: 24 }, (_, i) => {
      const utc = Date.parse('2024-10-26T00:00:00Z') + i * 3_600_000;
      const off = zoneOffsetMinutes(utc, 'Europe/Berlin');
      return `${new Date(utc + off * 60_000).toISOString().slice(0, 19)}+0${off / 60}:00`;
    });
    const r = await batchForecast(rows('h', hours), remote({ baseUrl: server.url }, { modelName: 'naive' }), { horizon: 3, timeZone: 'Europe/Berlin' });
    // The history ends 2024-10-27T01:00+02:00; the next hours are 02:00+02:00, then 02:00+01:00 (clocks went back).
    expect(forecastToRows(r.forecasts).map((x) => x.timestamp)).toEqual(['2024-10-27T02:00:00+02:00', '2024-10-27T02:00:00+01:00', '2024-10-27T03:00:00+01:00']);
  });

  it('fails a series whose time_zone is unknown, alone, naming the field', async () => {
    const r = await batchForecast(
      [
        { type: 'univariate_time_series', name: 'ok', series: [1, 2, 3], frequency: 'D', start_timestamp: '2024-01-01', time_zone: 'Europe/Berlin' },
        { type: 'univariate_time_series', name: 'bad', series: [1, 2, 3], frequency: 'D', start_timestamp: '2024-01-01', time_zone: 'Mars/Olympus' },
      ],
      remote({ baseUrl: server.url }, { modelName: 'naive' }),
      { horizon: 1 },
    );
    expect(r.forecasts.map((f) => [f.name, f.start_timestamp])).toEqual([['ok', '2024-01-04']]);
    expect(r.failures[0]).toMatchObject({ name: 'bad', error: { code: 'invalid_series', param: 'inputs[1].time_zone' } });
    expect(r.failures[0].error.message).toContain('"Mars/Olympus" is not an IANA time zone');
  });
});
