import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ForecastResponse, TimeSeriesInput } from '../contract/forecast.js';
import { isInferkitError } from '../errors.js';
import { forecastFigure } from '../plot/forecast-figure.js';
import { plotlyBundlePath, renderHtml } from '../plot/render-html.js';
import { renderPng } from '../plot/render-png.js';

/** Options of {@link writeForecastChart}. */
export interface WriteForecastChartOptions {
  /** Folder to write `forecast.html` (and `forecast.png`) into; created if missing. */
  outDir: string;
  /** Package root, to find plotly.js. @default process.cwd() */
  rootDir?: string;
  /** Chromium for the PNG; `null` writes HTML only. @default '/usr/bin/chromium' when it exists */
  chromium?: string | null;
}

/** What was written: the HTML path, and the PNG path or why there is none. */
export interface ForecastChartFiles {
  html: string;
  png: string | undefined;
  pngSkipped: string | undefined;
}

/**
 * Charts a forecast with `plot/` (history, mean, quantile bands; one facet per series and variable):
 * a standalone interactive HTML page (plotly inlined, opens offline) and, when Chromium is there,
 * a PNG rendered headless with no network.
 */
export async function writeForecastChart(
  inputs: readonly TimeSeriesInput[],
  response: ForecastResponse,
  options: WriteForecastChartOptions,
): Promise<ForecastChartFiles> {
  await mkdir(options.outDir, { recursive: true });
  const plotlyPath = plotlyBundlePath(options.rootDir ?? process.cwd());
  const figure = forecastFigure(inputs, response, { title: `Forecast by ${response.model}` });
  const html = join(options.outDir, 'forecast.html');
  await writeFile(html, renderHtml(figure, { title: `inferkit forecast (${response.model})`, plotlyPath }));

  const chromium = options.chromium === undefined ? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : null) : options.chromium;
  if (chromium === null) {
    return { html, png: undefined, pngSkipped: options.chromium === null ? 'PNG not requested' : 'no Chromium at /usr/bin/chromium' };
  }
  try {
    const png = join(options.outDir, 'forecast.png');
    await writeFile(png, await renderPng(figure, { chromiumPath: chromium, plotlyPath, timeoutMs: 60_000 }));
    return { html, png, pngSkipped: undefined };
  } catch (e) {
    if (!isInferkitError(e)) {
      throw e;
    }
    return { html, png: undefined, pngSkipped: e.message };
  }
}
