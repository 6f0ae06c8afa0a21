import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCsv } from '../../src/data/csv.js';
import { frameToInputs } from '../../src/data/frame-to-inputs.js';
import { batchForecast } from '../../src/data/batch-forecast.js';
import { isInferkitError } from '../../src/errors.js';
import { displayFigure } from '../../src/plot/display-figure.js';
import { forecastFigure } from '../../src/plot/forecast-figure.js';
import { renderPng } from '../../src/plot/render-png.js';
import { localForecaster } from '../../src/protocol/forecast/local-forecaster.js';
import { seasonalNaive } from '../../src/runtime/forecast/seasonal-naive.js';
import { decodePng } from './png-pixels.js';

describe('renderPng (headless Chromium)', () => {
  it('draws a forecast chart: non-white pixels in the plot area, the mean line in its colour', { timeout: 90_000 }, async () => {
    const inputs = frameToInputs(await readCsv(join(process.cwd(), 'datasets/classic_series.csv'))).filter((i) => i.name === 'AirPassengers');
    const result = await batchForecast(inputs, localForecaster(seasonalNaive()), { horizon: 24, quantiles: [0.1, 0.9] });
    const fig = forecastFigure(inputs, result.forecasts, { historyTail: 48 });
    const shown: Uint8Array[] = [];
    const dir = await mkdtemp(join(tmpdir(), 'inferkit-fig-'));
    const { png, file } = await displayFigure(fig, { width: 600, height: 400, display: { png: (b) => shown.push(b) }, file: join(dir, 'fig.html') });
    expect(shown).toEqual([png]);
    const img = decodePng(png);
    expect([img.width, img.height]).toEqual([600, 400]);
    // Plot area: inside the margins (l 60, r 20, t 40, b ~80 with the legend).
    let drawn = 0, meanBlue = 0, band = 0;
    for (let y = 45; y < 320; y++) {
      for (let x = 65; x < 575; x++) {
        const [r, g, b] = img.pixel(x, y);
        if (r < 245 || g < 245 || b < 245) drawn++;
        if (Math.abs(r - 31) < 40 && Math.abs(g - 119) < 40 && Math.abs(b - 180) < 40) meanBlue++;
        if (b > 200 && r > 150 && r < 240 && g > r) band++;
      }
    }
    expect(drawn).toBeGreaterThan(2000);
    expect(meanBlue).toBeGreaterThan(100);
    expect(band).toBeGreaterThan(1000);
    // Corners of the page stay white.
    expect(img.pixel(2, 2)).toEqual([255, 255, 255, 255]);
    const html = await readFile(file ?? '', 'utf8');
    expect(html).toContain('Plotly.newPlot');
    expect(html.length).toBeGreaterThan(4_000_000);
  });

  it('fails with a config error naming the path when Chromium is missing', async () => {
    const err = await renderPng({ data: [], layout: {} }, { chromiumPath: '/nonexistent/chromium' }).catch((e: unknown) => e);
    expect(isInferkitError(err) && err.code).toBe('config');
    expect(String((err as Error).message)).toContain('Chromium not found at /nonexistent/chromium');
  });
});
