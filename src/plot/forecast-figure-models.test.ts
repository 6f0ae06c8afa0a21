import { describe, expect, it } from 'vitest';
import { batchForecast } from '../data/batch-forecast.js';
import { seasonalNaive } from '../runtime/forecast/seasonal-naive.js';
import { theta } from '../runtime/forecast/theta.js';
import type { PlotlyTrace } from './figure.js';
import { forecastFigure } from './forecast-figure.js';

const day = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
const hour = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString();
const month = (i: number) => new Date(Date.UTC(2018, i, 1)).toISOString().slice(0, 10);
/** statsforecast's long layout: a daily, an hourly and a monthly series. */
const rows = [
  ...Array.from({ length: 60 }, (_, i) => ({ unique_id: 'daily', ds: day(i), y: 50 + 10 * Math.sin((2 * Math.PI * i) / 7) })),
  ...Array.from({ length: 96 }, (_, i) => ({ unique_id: 'hourly', ds: hour(i), y: 20 + 8 * Math.sin((2 * Math.PI * i) / 24) })),
  ...Array.from({ length: 48 }, (_, i) => ({ unique_id: 'monthly', ds: month(i), y: 100 + 20 * Math.sin((2 * Math.PI * i) / 12) + i })),
];
const models = { SeasonalNaive: seasonalNaive(), Theta: theta() };
const legend = (data: PlotlyTrace[]) => data.filter((t) => t.showlegend).map((t) => t.name);
const titleOf = (axis: unknown) => (axis as { title?: { text: string } }).title?.text;

describe('forecastFigure with several models (statsforecast-style)', () => {
  it('draws every model of a several-model batchForecast frame with its bands, each line joined to the history', async () => {
    const both = await batchForecast(rows, models, { horizon: 7, level: [80, 95] });
    const fig = forecastFigure(rows, both.frame, { historyTail: 14 });
    expect(legend(fig.data)).toEqual(['history', 'SeasonalNaive 95%', 'SeasonalNaive 80%', 'SeasonalNaive', 'Theta 95%', 'Theta 80%', 'Theta']);
    const daily = fig.data.filter((t) => t.meta === 'daily');
    const history = daily.find((t) => t.name === 'history') as PlotlyTrace;
    const [lastX, lastY] = [(history.x as string[]).at(-1), (history.y as number[]).at(-1)];
    for (const t of daily.filter((x) => x.name !== 'history')) {
      expect([(t.x as string[])[0], (t.y as number[])[0]], String(t.name)).toEqual([lastX, lastY]);
      expect(t.x as string[]).toHaveLength(8);
    }
    // Theta's 80% band is its lo-80 and hi-80 columns, in Theta's colour.
    const band = daily.find((t) => t.name === 'Theta 80%') as PlotlyTrace;
    expect(band).toMatchObject({ fill: 'tonexty', line: { color: '#ff7f0e' } });
    expect(fig.data.filter((t) => t.name === 'Theta').map((t) => (t.line as { color: string }).color)).toEqual(['#ff7f0e', '#ff7f0e', '#ff7f0e']);

    // The result itself reads like its frame; `models` picks and orders models.
    expect(forecastFigure(rows, both, { historyTail: 14 })).toEqual(fig);
    const picked = forecastFigure(rows, both.frame, { models: ['Theta'], bands: [[0.1, 0.9]] });
    expect(legend(picked.data)).toEqual(['history', 'Theta 80%', 'Theta']);
    expect(() => forecastFigure(rows, both.frame, { models: ['AutoETS'] })).toThrow(/no model AutoETS; the forecast has SeasonalNaive, Theta/);
  });

  it('titles each facet with its own frequency when a column mixes them', async () => {
    const one = await batchForecast(rows, seasonalNaive(), { horizon: 3 });
    // A one-model result works too, and frames without a frequency are read from their timestamps.
    for (const forecast of [one, one.forecasts]) {
      const fig = forecastFigure(rows, forecast);
      expect([fig.layout.xaxis, fig.layout.xaxis2, fig.layout.xaxis3].map(titleOf)).toEqual(['time (day)', 'time (hour)', 'time (month)']);
    }
    const both = await batchForecast(rows, models, { horizon: 3 });
    const fig = forecastFigure(rows, both.frame);
    expect([fig.layout.xaxis, fig.layout.xaxis2, fig.layout.xaxis3].map(titleOf)).toEqual(['time (day)', 'time (hour)', 'time (month)']);
    // One frequency in a column: the title goes under the lowest facet only.
    const daily = rows.filter((r) => r.unique_id === 'daily');
    const same = forecastFigure(null, [...daily, ...daily.map((r) => ({ ...r, unique_id: 'again' }))].map((r) => ({ ...r, mean: r.y })));
    expect([same.layout.xaxis, same.layout.xaxis2].map(titleOf)).toEqual([undefined, 'time (day)']);
  });

  it('throws naming what it expected for input it cannot read', () => {
    expect(() => forecastFigure(rows, { result: 1 } as never)).toThrow(/cannot read the forecast \(an object with keys result\); expected a forecast response, a list of forecasts, a batchForecast result/);
    expect(() => forecastFigure(rows, [{ unique_id: 'a', ds: '2024-01-01', label: 'x' }])).toThrow(/no forecast columns among label; expected/);
    expect(() => forecastFigure(rows, [{ unique_id: 'a', mean: 3 }])).toThrow(/has no timestamp \(or ds\) values/);
    expect(() => forecastFigure(rows, 42 as never)).toThrow(/cannot read the forecast 42; expected/);
  });
});
