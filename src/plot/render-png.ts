import { existsSync } from 'node:fs';
import { InferkitError } from '../errors.js';
import type { PlotlyFigure } from './figure.js';
import { withBrowser } from './chromium-pool.js';
import { parkPage, takePlotlyPage } from './plotly-page.js';
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
  /** Limit for each step (launching Chromium, loading plotly into a page, drawing), in ms; loading plotly took 37 s on a busy 2-core box. @default 120000 */
  timeoutMs?: number;
  /**
   * The Chromium is shared by every render in the process; it closes after this many ms without renders
   * (0: right after this one). An idle browser never keeps Node alive. @default 30000
   */
  idleMs?: number;
}

export { CHROMIUM_ARGS, closeRenderer, rendererStats } from './chromium-pool.js';

interface PlotlyApi {
  newPlot(el: unknown, data: unknown, layout: unknown, config: unknown): Promise<unknown>;
  toImage(el: unknown, options: { format: 'png'; width: number; height: number; scale: number }): Promise<string>;
}

/**
 * Renders a figure to PNG bytes with headless Chromium (playwright-core) and `Plotly.toImage`, in a browser
 * shared across calls (launched on first use, see `closeRenderer`) and a page with plotly already loaded. Throws
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
  // Generous: every step is local CPU work whose time follows the machine's load. At 30 s, headless notebook runs
  // failed at load 24-30 on 2 cores: page.goto of the 4.8 MB plotly bundle took 17 s at load 15, 37 s on one core.
  const timeout = options.timeoutMs ?? 120_000;
  const lease = { chromiumPath: executablePath, timeoutMs: timeout, idleMs: options.idleMs };
  return withBrowser(lease, async (browser) => {
    const page = await takePlotlyPage(browser, plotlyPath, timeout).catch((e: unknown) => {
      throw new InferkitError('internal', `Chromium could not load plotly from ${plotlyPath}: ${firstLine(e)}${timeoutHint(e, timeout)}`, { cause: e });
    });
    let reusable = false;
    try {
      await page.setViewportSize({ width, height });
      // No sleep: newPlot's and toImage's promises resolve once plotly has drawn the figure.
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
      reusable = true;
      const base64 = url.slice(url.indexOf(',') + 1);
      return new Uint8Array(Buffer.from(base64, 'base64'));
    } catch (e) {
      throw new InferkitError('internal', `rendering the figure failed: ${firstLine(e)}${timeoutHint(e, timeout)}`, { cause: e });
    } finally {
      if (reusable) {
        await parkPage(browser, plotlyPath, page);
      } else {
        await page.close().catch(() => undefined);
      }
    }
  });
}

/** A playwright timeout on a busy machine: say which option gives it more time. */
function timeoutHint(e: unknown, timeoutMs: number): string {
  return e instanceof Error && e.name === 'TimeoutError' ? ` (a busy machine is slower: pass timeoutMs above ${timeoutMs})` : '';
}

function firstLine(e: unknown): string {
  return e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e);
}
