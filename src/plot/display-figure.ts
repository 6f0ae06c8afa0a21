import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { PlotlyFigure } from './figure.js';
import { renderHtml, type RenderHtmlOptions } from './render-html.js';
import { renderPng, type RenderPngOptions } from './render-png.js';

/** The part of tslab's `Display` that shows images (`tslab.display`, `tslab.newDisplay()`). */
export interface PngDisplay {
  png(bytes: Uint8Array): void;
}

/** Options of `displayFigure`. */
export interface DisplayFigureOptions extends RenderPngOptions {
  /** Also write the interactive figure to this HTML file (its folder is created when missing). */
  file?: string;
  /** How that file gets plotly.js: inlined (~5 MB, opens offline) or from cdn.plot.ly (a few kB). @default "inline" */
  plotly?: RenderHtmlOptions['plotly'];
  /** Where to show the PNG. @default tslab's `display` (inside a tslab kernel) */
  display?: PngDisplay;
}

/**
 * Shows a figure in a notebook as a PNG (small outputs, no inlined plotly) and optionally writes the
 * interactive HTML beside it. Returns the PNG bytes and the HTML path. The Chromium behind the PNG is shared
 * by later charts and closes after `idleMs` (or `closeRenderer()`).
 */
export async function displayFigure(fig: PlotlyFigure, options: DisplayFigureOptions = {}): Promise<{ png: Uint8Array; file?: string }> {
  const png = await renderPng(fig, options);
  if (options.file) {
    await mkdir(dirname(options.file), { recursive: true });
    await writeFile(options.file, renderHtml(fig, { plotlyPath: options.plotlyPath, plotly: options.plotly }), 'utf8');
  }
  const display: PngDisplay = options.display ?? (await import('tslab')).display;
  display.png(png);
  return options.file ? { png, file: options.file } : { png };
}
