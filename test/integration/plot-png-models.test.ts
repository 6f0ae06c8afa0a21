import { afterAll, describe, expect, it } from 'vitest';
import { batchForecast } from '../../src/data/batch-forecast.js';
import { forecastFigure } from '../../src/plot/forecast-figure.js';
import { closeRenderer, renderPng } from '../../src/plot/render-png.js';
import { seasonalNaive } from '../../src/runtime/forecast/seasonal-naive.js';
import { theta } from '../../src/runtime/forecast/theta.js';
import { decodePng } from './png-pixels.js';

const month = (i: number) => new Date(Date.UTC(2018, i, 1)).toISOString().slice(0, 10);
const rows = Array.from({ length: 60 }, (_, i) => ({ unique_id: 'monthly', ds: month(i), y: 100 + 20 * Math.sin((2 * Math.PI * i) / 12) + i }));

const near = (p: number[], [r, g, b]: number[], tol = 40) => Math.abs(p[0] - r) < tol && Math.abs(p[1] - g) < tol && Math.abs(p[2] - b) < tol;

describe('a several-model forecast chart in headless Chromium', () => {
  afterAll(() => closeRenderer());

  it('draws both models (blue and orange lines with bands) right of the history, and the history up to the start', { timeout: 120_000 }, async () => {
    const both = await batchForecast(rows, { SeasonalNaive: seasonalNaive(), Theta: theta() }, { horizon: 12, level: [80] });
    const fig = forecastFigure(rows, both.frame, { historyTail: 36 });
    const img = decodePng(await renderPng(fig, { width: 600, height: 400 }));
    // 48 months on the x axis; the forecast is the last quarter of the plot area (x ≈ 65…575).
    const split = 65 + Math.round(0.74 * 510);
    const count = (from: number, to: number, colour: number[]) => {
      let n = 0;
      for (let y = 45; y < 320; y++) {
        for (let x = from; x < to; x++) {
          n += near(img.pixel(x, y), colour) ? 1 : 0;
        }
      }
      return n;
    };
    const blue = [31, 119, 180], orange = [255, 127, 14], grey = [64, 64, 64];
    expect(count(split, 575, blue), 'SeasonalNaive line').toBeGreaterThan(60);
    expect(count(split, 575, orange), 'Theta line').toBeGreaterThan(60);
    expect(count(65, split - 10, orange) + count(65, split - 10, blue), 'no model drawn over the history').toBeLessThan(10);
    expect(count(65, split - 10, grey), 'history line').toBeGreaterThan(200);
    // Light bands of both colours (alpha over white, or over each other: orange-tinted where Theta's band lies).
    let lightOrange = 0, lightBlue = 0;
    for (let y = 45; y < 320; y++) {
      for (let x = split; x < 575; x++) {
        const [r, g, b] = img.pixel(x, y);
        lightOrange += r > 200 && b > 150 && r - b > 12 && g < r ? 1 : 0;
        lightBlue += b > 200 && r > 150 && r < 235 && g > r ? 1 : 0;
      }
    }
    expect(lightOrange).toBeGreaterThan(300);
    expect(lightBlue).toBeGreaterThan(300);
  });
});
