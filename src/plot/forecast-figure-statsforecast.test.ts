import { DataFrame } from 'danfojs-node';
import { describe, expect, it } from 'vitest';
import { batchForecast } from '../data/batch-forecast.js';
import { forecastToFrame } from '../data/forecast-to-frame.js';
import { theta } from '../runtime/forecast/theta.js';
import { forecastFigure } from './forecast-figure.js';

describe('forecastFigure with statsforecast frames', () => {
  it('reads unique_id, ds and y as the history', async () => {
    const history = new DataFrame(Array.from({ length: 24 }, (_, t) => ({ unique_id: 'a', ds: `2020-${String((t % 12) + 1).padStart(2, '0')}-01T00:00:00+01:00`.replace('2020', String(2020 + Math.floor(t / 12))), y: t })));
    const r = await batchForecast(history, theta(), { horizon: 2 });
    const fig = forecastFigure(history, forecastToFrame(r.forecasts), { historyTail: 3 });
    const past = fig.data.find((t) => t.name === 'history');
    expect(past?.x).toEqual(['2021-10-01T00:00:00+01:00', '2021-11-01T00:00:00+01:00', '2021-12-01T00:00:00+01:00']);
    expect(past?.y).toEqual([21, 22, 23]);
    // The forecast line starts at the last observation (history and forecast join).
    expect(fig.data.find((t) => t.name === 'mean')?.x).toEqual(['2021-12-01T00:00:00+01:00', '2022-01-01T00:00:00+01:00', '2022-02-01T00:00:00+01:00']);
  });
});
