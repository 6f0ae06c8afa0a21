import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InferkitError } from '../errors.js';
import type { PlotlyFigure } from './figure.js';
import { plotlyBundlePath } from './render-html.js';

/** Options of `renderPng`. */
export interface RenderPngOptions {
  /** Image width in CSS pixels. @default 900 */
  width?: number;
  /** Image height in CSS pixels. @default layout.height, else 450 */
  height?: number;
  /** Pixel ratio (2 for sharp images on high-DPI screens). @default 1 */
  scale?: number;
  /** Chromium executable. @default "/usr/bin/chromium" (Debian's `chromium` package) */
  chromiumPath?: string;
  /** Path of `plotly.min.js`. @default resolved from `plotly.js-dist-min` under `process.cwd()` */
  plotlyPath?: string;
  /** Limit for launching Chromium and drawing, in ms. @default 30000 */
  timeoutMs?: number;
}

/** Chromium flags for a headless, offline, sandbox-less render (containers, CI). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

interface PlotlyApi {
  newPlot(el: unknown, data: unknown, layout: unknown, config: unknown): Promise<unknown>;
  toImage(el: unknown, options: { format: 'png'; width: number; height: number; scale: number }): Promise<string>;
}

/**
 * Renders a figure to PNG bytes with headless Chromium (playwright-core) and `Plotly.toImage`. Throws
 * `InferkitError('config')` when Chromium is missing or cannot start. No network is used.
 */
export async function renderPng(fig: PlotlyFigure, options: RenderPngOptions = {}): Promise<Uint8Array> {
  const executablePath = options.chromiumPath ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new InferkitError('config', `Chromium not found at ${executablePath}; install it (Debian: apt-get install chromium) or pass chromiumPath`);
  }
  const plotlyPath = options.plotlyPath ?? plotlyBundlePath();
  const width = options.width ?? 900;
  const height = options.height ?? (typeof fig.layout.height === 'number' ? fig.layout.height : 450);
  const timeout = options.timeoutMs ?? 30_000;
  const { chromium } = await import('playwright-core');
  let browser: Awaited<ReturnType<typeof chromium.launch>>;
  try {
    browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS], timeout });
  } catch (e) {
    throw new InferkitError('config', `Chromium at ${executablePath} did not start: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`, { cause: e });
  }
  const dir = await mkdtemp(join(tmpdir(), 'inferkit-png-'));
  try {
    const page = await browser.newPage({ viewport: { width, height } });
    page.setDefaultTimeout(timeout);
    // A file page loading plotly by file URL: much faster than injecting 4.8 MB of script over CDP.
    const pageFile = join(dir, 'figure.html');
    await writeFile(
      pageFile,
      `<!DOCTYPE html><html><head><meta charset="utf-8"><script src="${pathToFileURL(plotlyPath).href}"></script></head>` +
        '<body style="margin:0;background:#fff"><div id="plot"></div></body></html>',
    );
    await page.goto(pathToFileURL(pageFile).href);
    const url = await page.evaluate(
      async ({ data, layout, width, height, scale }) => {
        // Runs in the page; typed without the DOM lib (tslab type-checks without it).
        const page = globalThis as unknown as { Plotly: PlotlyApi; document: { getElementById(id: string): unknown } };
        const { Plotly } = page;
        const el = page.document.getElementById('plot');
        await Plotly.newPlot(el, data, { ...layout, width, height }, { staticPlot: true });
        return Plotly.toImage(el, { format: 'png', width, height, scale });
      },
      { data: fig.data, layout: fig.layout, width, height, scale: options.scale ?? 1 },
    );
    const base64 = url.slice(url.indexOf(',') + 1);
    return new Uint8Array(Buffer.from(base64, 'base64'));
  } catch (e) {
    throw new InferkitError('internal', `rendering the figure failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`, { cause: e });
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
}
