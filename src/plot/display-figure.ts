import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { BundleDisplay } from './deno-jupyter.js';
import { kernelDisplay } from './display-frame.js';
import type { PlotlyFigure } from './figure.js';
import { figureOutputHtml } from './figure-output-html.js';
import { renderHtml, type RenderHtmlOptions } from './render-html.js';
import { renderPng, type RenderPngOptions } from './render-png.js';

/** The part of tslab's `Display` that shows images (`tslab.display`, `tslab.newDisplay()`). */
export interface PngDisplay {
  png(bytes: Uint8Array): void;
}

/** The part of tslab's `Display` that `displayFigure` uses: HTML for the interactive chart, PNG otherwise. */
export interface FigureDisplay extends PngDisplay {
  html(html: string): void;
}

/** Options of `displayFigure`. */
export interface DisplayFigureOptions extends RenderPngOptions {
  /**
   * Show the interactive chart where the front end runs scripts (Jupyter Notebook, JupyterLab, VS Code),
   * with the PNG in the same output as its fallback (GitHub's viewer, untrusted notebooks, offline HTML).
   * `false` shows the PNG alone. @default true
   */
  interactive?: boolean;
  /**
   * How the interactive output (and `file`) get plotly.js: `cdn` references the installed version on
   * cdn.plot.ly (a few kB per output); `inline` embeds the 4.8 MB bundle (works offline, big notebooks);
   * `{ src }` is the script URL. @default "cdn" in the notebook; a `file` without this option inlines plotly
   */
  plotly?: RenderHtmlOptions['plotly'];
  /** Also write the interactive figure to this standalone HTML file (its folder is created when missing). */
  file?: string;
  /**
   * Where to show the chart (one without `html` gets the PNG; one with `bundle(mimeBundle)` gets the HTML, the
   * plotly JSON and the summary line as one output). @default the kernel's display (tslab's, or `Deno.jupyter.display` in Deno's kernel)
   */
  display?: FigureDisplay | PngDisplay;
}

/**
 * What `displayFigure` showed and wrote. A notebook that ends a cell with `await displayFigure(…)` prints it as
 * one line (`[figure shown: 900×450 PNG, 41 kB, interactive]`), not the PNG's bytes.
 */
export interface DisplayedFigure {
  /** The PNG (shown alone, or inside `html`). */
  png: Uint8Array;
  /** The interactive output shown (absent with `interactive: false`). */
  html?: string;
  /** The standalone HTML file written. */
  file?: string;
}

/**
 * Shows a figure in a notebook: by default one HTML output holding the PNG, which turns into the
 * interactive plotly chart where the front end runs scripts (plotly.js from its CDN, or inlined with
 * `plotly: 'inline'`); with `interactive: false` the PNG alone. Optionally writes a standalone HTML file.
 * The Chromium behind the PNG is shared by later charts and closes after `idleMs` (or `closeRenderer()`).
 * In Deno's Jupyter kernel the output is one MIME bundle: that HTML, `application/vnd.plotly.v1+json` (drawn
 * natively where the front end has plotly's renderer, as VS Code does) and the summary line as `text/plain`.
 * Outside a tslab or Deno kernel, pass `display` (an object with `png(bytes)`, and `html(html)` for the interactive
 * chart); without it this throws an InferkitError `config` at once, before starting Chromium or writing `file`.
 */
export async function displayFigure(fig: PlotlyFigure, options: DisplayFigureOptions = {}): Promise<DisplayedFigure> {
  const display: FigureDisplay | PngDisplay = options.display
    ?? (await kernelDisplay('displayFigure', 'an object with png(bytes: Uint8Array) and, for the interactive chart, html(html: string); or call renderPng(fig) for the PNG'));
  const png = await renderPng(fig, options);
  const width = options.width ?? 900;
  const height = options.height ?? (typeof fig.layout.height === 'number' ? fig.layout.height : 450);
  const shown = summarized({ png }, `${width}×${height}`);
  if (options.file) {
    await mkdir(dirname(options.file), { recursive: true });
    await writeFile(options.file, renderHtml(fig, { plotlyPath: options.plotlyPath, plotly: options.plotly ?? 'inline' }), 'utf8');
    shown.file = options.file;
  }
  if (options.interactive === false || !showsHtml(display)) {
    await display.png(png);
    return shown;
  }
  shown.html = figureOutputHtml(fig, png, { width, height, plotly: options.plotly ?? 'cdn', plotlyPath: options.plotlyPath });
  if (showsBundle(display)) {
    await display.bundle({ 'text/html': shown.html, 'application/vnd.plotly.v1+json': { data: fig.data, layout: { ...fig.layout, width, height } }, 'text/plain': String(shown) });
  } else {
    await display.html(shown.html);
  }
  return shown;
}

function showsHtml(display: FigureDisplay | PngDisplay): display is FigureDisplay {
  return typeof (display as Partial<FigureDisplay>).html === 'function';
}

function showsBundle(display: FigureDisplay): display is FigureDisplay & Pick<BundleDisplay, 'bundle'> {
  return typeof (display as Partial<BundleDisplay>).bundle === 'function';
}

/**
 * `shown` with a one-line text form for `console.log`/`util.inspect` (what a tslab cell prints for its last
 * value) and `String()`; the fields stay as they are. Non-enumerable, so the object still compares and spreads
 * as plain data.
 */
function summarized(shown: DisplayedFigure, size: string): DisplayedFigure {
  const line = (): string => {
    const parts = [`${size} PNG, ${Math.max(1, Math.round(shown.png.byteLength / 1000))} kB`];
    if (shown.html !== undefined) {
      parts.push('interactive');
    }
    if (shown.file !== undefined) {
      parts.push(`file ${shown.file}`);
    }
    return `[figure shown: ${parts.join(', ')}]`;
  };
  Object.defineProperty(shown, Symbol.for('nodejs.util.inspect.custom'), { value: line, enumerable: false });
  Object.defineProperty(shown, 'toString', { value: line, enumerable: false });
  return shown;
}
