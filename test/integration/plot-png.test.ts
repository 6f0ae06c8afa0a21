import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCsv } from '../../src/data/csv.js';
import { frameToInputs } from '../../src/data/frame-to-inputs.js';
import { batchForecast } from '../../src/data/batch-forecast.js';
import { isInferkitError } from '../../src/errors.js';
import { displayFigure } from '../../src/plot/display-figure.js';
import { forecastFigure } from '../../src/plot/forecast-figure.js';
import type { PlotlyFigure } from '../../src/plot/figure.js';
import { closeRenderer, renderPng, rendererStats } from '../../src/plot/render-png.js';
import { localForecaster } from '../../src/protocol/forecast/local-forecaster.js';
import { seasonalNaive } from '../../src/runtime/forecast/seasonal-naive.js';
import { decodePng } from './png-pixels.js';
import { tempDir } from '../fixtures/temp-dirs.js';

async function seriesFigure(name: string): Promise<PlotlyFigure> {
  const inputs = frameToInputs(await readCsv(join(process.cwd(), 'datasets/classic_series.csv'))).filter((i) => i.name === name);
  const result = await batchForecast(inputs, localForecaster(seasonalNaive()), { horizon: 24, quantiles: [0.1, 0.9] });
  return forecastFigure(inputs, result.forecasts, { historyTail: 48 });
}

/** Non-white pixels inside the plot area of a 600×400 chart. */
function drawnPixels(png: Uint8Array): number {
  const img = decodePng(png);
  expect([img.width, img.height]).toEqual([600, 400]);
  let drawn = 0;
  for (let y = 45; y < 320; y++) {
    for (let x = 65; x < 575; x++) {
      const [r, g, b] = img.pixel(x, y);
      if (r < 245 || g < 245 || b < 245) {
        drawn++;
      }
    }
  }
  return drawn;
}

describe('renderPng (headless Chromium)', () => {
  afterAll(() => closeRenderer());

  it('draws a forecast chart: non-white pixels in the plot area, the mean line in its colour', { timeout: 90_000 }, async () => {
    const inputs = frameToInputs(await readCsv(join(process.cwd(), 'datasets/classic_series.csv'))).filter((i) => i.name === 'AirPassengers');
    const result = await batchForecast(inputs, localForecaster(seasonalNaive()), { horizon: 24, quantiles: [0.1, 0.9] });
    const fig = forecastFigure(inputs, result.forecasts, { historyTail: 48 });
    const shown: Uint8Array[] = [];
    const dir = tempDir('inferkit-fig-');
    const { png, file } = await displayFigure(fig, { width: 600, height: 400, display: { png: (b) => shown.push(b) }, file: join(dir, 'fig.html') });
    expect(shown).toEqual([png]);
    const img = decodePng(png);
    expect([img.width, img.height]).toEqual([600, 400]);
    // Plot area: inside the margins (l 60, r 20, t 40, b ~80 with the legend).
    let drawn = 0, meanBlue = 0, band = 0;
    for (let y = 45; y < 320; y++) {
      for (let x = 65; x < 575; x++) {
        const [r, g, b] = img.pixel(x, y);
        if (r < 245 || g < 245 || b < 245) {
          drawn++;
        }
        if (Math.abs(r - 31) < 40 && Math.abs(g - 119) < 40 && Math.abs(b - 180) < 40) {
          meanBlue++;
        }
        if (b > 200 && r > 150 && r < 240 && g > r) {
          band++;
        }
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

  it('renders sequential figures on one browser, each fully drawn, none leaking into the next', { timeout: 90_000 }, async () => {
    await closeRenderer();
    const before = rendererStats().launches;
    const [air, nile] = [await seriesFigure('AirPassengers'), await seriesFigure('Nile')];
    const size = { width: 600, height: 400 };
    const first = await renderPng(air, size);
    const second = await renderPng(nile, size);
    const again = await renderPng(air, size);
    expect(rendererStats().launches - before).toBe(1);
    for (const png of [first, second, again]) {
      expect(drawnPixels(png)).toBeGreaterThan(2000);
    }
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(false);
    // A reused page must show exactly the new figure: the same figure gives the same bytes.
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);
  });

  it('shares the browser between concurrent renders, each fully drawn', { timeout: 90_000 }, async () => {
    // Launch-once under concurrency and relaunch after closeRenderer() are in chromium-pool.test.ts.
    const { launches: before, open } = rendererStats();
    const fig = await seriesFigure('Nile');
    const pngs = await Promise.all([renderPng(fig, { width: 600, height: 400 }), renderPng(fig, { width: 600, height: 400 })]);
    expect(rendererStats().launches - before).toBe(open === 1 ? 0 : 1);
    for (const png of pngs) {
      expect(drawnPixels(png)).toBeGreaterThan(2000);
    }
    expect(Buffer.from(pngs[0]).equals(Buffer.from(pngs[1]))).toBe(true);
  });

  it('lets a script exit while its browser idles (no wait for the idle timeout)', { timeout: 120_000 }, async () => {
    const dir = tempDir('inferkit-exit-');
    const script = join(dir, 'render-once.mts');
    const renderPngModule = join(process.cwd(), 'src/plot/render-png.ts');
    await writeFile(
      script,
      `import { renderPng, rendererStats } from ${JSON.stringify(renderPngModule)};\n` +
        `const png = await renderPng({ data: [{ y: [1, 3, 2] }], layout: {} }, { idleMs: 600_000 });\n` +
        `process.stdout.write(JSON.stringify({ bytes: png.length, ...rendererStats() }));\n`,
    );
    // Were the browser or the 10-minute idle timer holding the event loop, this would hit the timeout.
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: process.cwd(), encoding: 'utf8', timeout: 90_000 });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as { bytes: number; launches: number; open: number; pids: number[] };
    expect(out).toMatchObject({ launches: 1, open: 1 });
    expect(out.bytes).toBeGreaterThan(1000);
  });
});
