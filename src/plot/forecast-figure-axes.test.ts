import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TimeSeriesForecast, TimeSeriesInput } from '../contract/forecast.js';
import { batchForecast } from '../data/batch-forecast.js';
import { readCsv } from '../data/csv.js';
import { frameToInputs } from '../data/frame-to-inputs.js';
import { localForecaster } from '../protocol/forecast/local-forecaster.js';
import { theta } from '../runtime/forecast/theta.js';
import { coveringRange, xTitle, yTitle } from './axes.js';
import type { PlotlyFigure } from './figure.js';
import { forecastFigure } from './forecast-figure.js';

const input = (name: string, n: number, extra: Record<string, unknown> = {}): TimeSeriesInput => ({
  type: 'univariate_time_series', name, frequency: 'month', start_timestamp: '2020-01-01T00:00:00Z', series: Array.from({ length: n }, (_, i) => 10 + (i % 3)), ...extra,
});
const forecastOf = (name: string, h: number, start = '2030-01-01T00:00:00Z'): TimeSeriesForecast => ({
  type: 'univariate_time_series', name, frequency: 'month', start_timestamp: start,
  mean_forecast: Array.from({ length: h }, () => 11),
  // Bands far outside the history: an autorange over the history alone would clip them.
  quantiles: { '0.1': Array.from({ length: h }, (_, i) => -50 - i), '0.9': Array.from({ length: h }, (_, i) => 80 + i) },
});

/** Every drawn y value of every trace lies inside its axis' range. */
function outsideRange(fig: PlotlyFigure): string[] {
  const out: string[] = [];
  for (const t of fig.data) {
    const axis = fig.layout[`yaxis${String(t.yaxis).slice(1)}`] as { range?: [number, number] };
    expect(axis.range, `range of ${String(t.yaxis)}`).toBeDefined();
    const [lo, hi] = axis.range ?? [0, 0];
    for (const y of t.y as (number | null)[]) {
      if (y !== null && (y < lo || y > hi)) {
        out.push(`${String(t.meta)} ${String(t.name)}: ${y} not in [${lo}, ${hi}]`);
      }
    }
  }
  return out;
}

describe('forecastFigure axes', () => {
  it('sets each y range over the bands, the mean and the shown history', () => {
    const fig = forecastFigure([input('a', 30), input('b', 30)], [forecastOf('a', 3), forecastOf('b', 5)]);
    expect(outsideRange(fig)).toEqual([]);
    expect(fig.layout.yaxis).toMatchObject({ range: [-58.7, 88.7], title: { text: 'value' } });
    expect(fig.layout.yaxis2).toMatchObject({ range: [-60.9, 90.9] });
  });

  it('keeps every band point of real theta forecasts inside the y range, with titled axes', async () => {
    const names = ['AirPassengers', 'co2', 'UKgas', 'Nile'];
    const inputs = frameToInputs(await readCsv(join(process.cwd(), 'datasets/classic_series.csv'))).filter((s) => names.includes(s.name));
    const { forecasts } = await batchForecast(inputs, localForecaster(theta()), { horizon: 24, quantiles: [0.05, 0.1, 0.5, 0.9, 0.95] });
    const fig = forecastFigure(inputs, forecasts, { units: { co2: 'ppm' } });
    expect(fig.data.filter((t) => String(t.name).startsWith('band') || /^q/.test(String(t.name))).length).toBe(16);
    expect(outsideRange(fig)).toEqual([]);
    const titles = (k: string) => (fig.layout[k] as { title?: { text: string } }).title?.text;
    expect(['yaxis', 'yaxis2', 'yaxis3', 'yaxis4'].map(titles)).toEqual(['value', 'value (ppm)', 'value', 'value']);
    // Each column mixes frequencies (month over quarter, month over year): every facet has its own x title.
    expect(['xaxis', 'xaxis2', 'xaxis3', 'xaxis4'].map(titles)).toEqual(['time (month)', 'time (month)', 'time (quarter)', 'time (year)']);
  });

  it('shows 4 × the horizon of history by default, a given count, or all of it', () => {
    const lengths = (fig: PlotlyFigure) => fig.data.filter((t) => t.name === 'history').map((t) => (t.x as unknown[]).length);
    expect(lengths(forecastFigure([input('a', 100), input('b', 5)], [forecastOf('a', 6), forecastOf('b', 6)]))).toEqual([24, 5]);
    expect(lengths(forecastFigure([input('a', 100)], [forecastOf('a', 6)], { historyTail: 10 }))).toEqual([10]);
    expect(lengths(forecastFigure([input('a', 100)], [forecastOf('a', 6)], { historyTail: 'all' }))).toEqual([100]);
    const last = forecastFigure([input('a', 100)], [forecastOf('a', 6)]).data[0].x as string[];
    expect(last.at(-1)).toBe('2028-04-01T00:00:00Z');
    expect(() => forecastFigure([input('a', 10)], [forecastOf('a', 2)], { historyTail: -1 })).toThrow(/historyTail must be a count >= 0 or 'all', got -1/);
  });

  it('draws the first maxSeries series by default and says so; dropdown mode offers them all', () => {
    const names = Array.from({ length: 9 }, (_, i) => `s${i}`);
    const fig = forecastFigure(names.map((n) => input(n, 12)), names.map((n) => forecastOf(n, 2)));
    expect([...new Set(fig.data.map((t) => t.meta))]).toEqual(['s0', 's1', 's2', 's3', 's4', 's5']);
    const notes = (fig.layout.annotations as Array<{ text: string }>).map((a) => a.text);
    expect(notes.at(-1)).toBe("first 6 of 9 series (options: series, maxSeries, mode: 'dropdown')");
    expect(new Set(forecastFigure(null, names.map((n) => forecastOf(n, 2)), { maxSeries: 2 }).data.map((t) => t.meta))).toEqual(new Set(['s0', 's1']));
    expect(() => forecastFigure(null, [forecastOf('a', 2)], { maxSeries: 0 })).toThrow(/maxSeries must be a positive integer/);

    const drop = forecastFigure(names.map((n, i) => input(n, 12, { unit: `u${i}` })), names.map((n) => forecastOf(n, 2)), { mode: 'dropdown' });
    const [menu] = drop.layout.updatemenus as Array<{ buttons: Array<{ args: [unknown, Record<string, unknown>] }> }>;
    expect(menu.buttons).toHaveLength(9);
    expect(menu.buttons[8].args[1]).toMatchObject({ 'yaxis.title.text': 's8: value (u8)', 'yaxis.range': [-57.6, 87.6], 'xaxis.title.text': 'time (month)' });
    expect(drop.layout.yaxis).toMatchObject({ range: [-57.6, 87.6], title: { text: 's0: value (u0)' } });
  });

  it('titles axes from units, value columns and variables', () => {
    expect(yTitle('EU · DAX', 'value', new Map([['EU', 'points']]))).toBe('DAX (points)');
    expect(yTitle('load', 'kwh', new Map())).toBe('kwh');
    expect(xTitle([0, 1], 'month')).toBe('step');
    expect(xTitle(['2020-01-01'], undefined)).toBe('time');
    const rows = [{ id: 'a', timestamp: 0, load: 3 }, { id: 'a', timestamp: 1, load: 5 }];
    const fig = forecastFigure(rows, [{ id: 'a', timestamp: 2, mean: 4 }], { valueColumn: 'load', units: 'MW' });
    expect(fig.data[0].y).toEqual([3, 5]);
    expect(fig.layout.yaxis).toMatchObject({ title: { text: 'load (MW)' }, range: [2.9, 5.1] });
    expect(fig.layout.xaxis).toMatchObject({ title: { text: 'step' } });
  });

  it('pads a range, keeps a flat line visible and skips empty or missing values', () => {
    expect(coveringRange([[0, 10], [null, 5]])).toEqual([-0.5, 10.5]);
    expect(coveringRange([[7, 7]])).toEqual([6, 8]);
    expect(coveringRange([[], undefined, [null]])).toBeUndefined();
  });
});
