import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../../src/plot/chromium-pool.js';
import { displayFigure } from '../../src/plot/display-figure.js';
import type { PlotlyFigure } from '../../src/plot/figure.js';
import { figureOutputHtml } from '../../src/plot/figure-output-html.js';
import { plotlyBundlePath, plotlyCdnUrl } from '../../src/plot/render-html.js';
import { closeRenderer, renderPng } from '../../src/plot/render-png.js';
import { tempDir } from '../fixtures/temp-dirs.js';

/** The page a notebook front end would be: served from a made-up origin, nothing reachable but what routes serve. */
const ORIGIN = 'http://notebook.invalid/';
const fig: PlotlyFigure = { data: [{ type: 'scatter', y: [1, 3, 2, 4] }], layout: { title: { text: 'A &amp; B' } } };
const size = { width: 500, height: 300 };

let browser: Browser;
let png: Uint8Array;
const plotlyJs = readFileSync(plotlyBundlePath());

beforeAll(async () => {
  png = await renderPng(fig, size);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS] });
}, 60_000);
afterAll(async () => {
  await browser.close();
  await closeRenderer();
});

/** A page showing `body`; the CDN serves the local plotly.js when `cdn` is set, every other request fails. */
async function open(body: string, opts: { cdn: boolean; javaScriptEnabled?: boolean }): Promise<{ page: Page; context: BrowserContext; cdnHits: string[] }> {
  const context = await browser.newContext({ javaScriptEnabled: opts.javaScriptEnabled ?? true });
  const cdnHits: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url === ORIGIN) {
      await route.fulfill({ contentType: 'text/html', body: `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${body}</body></html>` });
    } else if (url.startsWith('https://cdn.plot.ly/') && opts.cdn) {
      cdnHits.push(url);
      await route.fulfill({ contentType: 'application/javascript', body: plotlyJs });
    } else {
      await route.abort();
    }
  });
  const page = await context.newPage();
  await page.goto(ORIGIN);
  return { page, context, cdnHits };
}

describe('displayFigure options', () => {
  it('shows HTML by default, the PNG alone with interactive: false or a display without html; plotly applies to the file too', { timeout: 60_000 }, async () => {
    const shown: string[] = [];
    const display = { png: () => shown.push('png'), html: (h: string) => shown.push(h.includes(plotlyCdnUrl()) ? 'html-cdn' : 'html-other') };
    const dir = tempDir('inferkit-dispfig-');
    const first = await displayFigure(fig, { ...size, display, file: join(dir, 'a.html'), plotly: 'cdn' });
    expect(first.html).toContain('data:image/png;base64,');
    expect((await readFile(join(dir, 'a.html'), 'utf8')).length).toBeLessThan(20_000);
    const still = await displayFigure(fig, { ...size, display, interactive: false });
    expect(still.html).toBeUndefined();
    await displayFigure(fig, { ...size, display: { png: () => shown.push('png-only') } });
    expect(shown).toEqual(['html-cdn', 'png', 'png-only']);
  });
});

describe('figureOutputHtml in Chromium', () => {
  it('turns the PNG into the interactive chart, loading plotly from the CDN once per page', { timeout: 60_000 }, async () => {
    const outputs = [figureOutputHtml(fig, png, size), figureOutputHtml(fig, png, size)];
    expect(outputs[0]).toContain(`"${plotlyCdnUrl()}"`);
    expect(outputs[0]).toContain('alt="A &amp; B"');
    expect(outputs[0].length).toBeLessThan(png.length * 2 + 6000);
    const ids = outputs.map((h) => /id="(inferkit-fig-[0-9a-f]+)"/.exec(h)?.[1]);
    expect(new Set(ids).size).toBe(2);
    const { page, context, cdnHits } = await open(outputs.join('\n'), { cdn: true });
    await page.waitForFunction('document.querySelectorAll(\'.inferkit-figure[data-interactive="yes"]\').length === 2');
    expect(await page.locator('.inferkit-figure .js-plotly-plot').count()).toBe(2);
    expect(await page.locator('.inferkit-figure img').count()).toBe(0);
    expect(await page.locator('.inferkit-figure .scatterlayer .trace').count()).toBe(2);
    expect(cdnHits).toEqual([plotlyCdnUrl()]);
    await context.close();
  });

  it('keeps the PNG when plotly cannot load or scripts do not run', { timeout: 60_000 }, async () => {
    const html = figureOutputHtml(fig, png, size);
    const offline = await open(html, { cdn: false });
    // The loader's queue: one entry per script URL, null once the script loaded or failed.
    await offline.page.waitForFunction('window.inferkitPlotly !== undefined && Object.values(window.inferkitPlotly).every((v) => v === null)');
    const natural = await offline.page.locator('.inferkit-figure img').evaluate((img) => [(img as unknown as { naturalWidth: number }).naturalWidth, (img as unknown as { complete: boolean }).complete]);
    expect(natural).toEqual([size.width, true]);
    expect(await offline.page.locator('.js-plotly-plot').count()).toBe(0);
    await offline.context.close();

    const noScripts = await open(html, { cdn: true, javaScriptEnabled: false });
    const img = noScripts.page.locator('.inferkit-figure img');
    await expect.poll(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBe(size.width);
    expect(await img.isVisible()).toBe(true);
    expect(noScripts.cdnHits).toEqual([]);
    await noScripts.context.close();
  });

  it('draws when the script runs elsewhere before the output is attached, and inline offline', { timeout: 60_000 }, async () => {
    const { page, context } = await open('', { cdn: true });
    // Like jQuery's html() in the classic notebook: the script runs from <head> while the output is not in the page yet.
    await page.evaluate(`(() => {
      const host = document.createElement('div');
      host.innerHTML = ${JSON.stringify(figureOutputHtml(fig, png, size))};
      for (const old of Array.from(host.querySelectorAll('script'))) {
        const s = document.createElement('script');
        s.textContent = old.textContent;
        document.head.appendChild(s);
        old.remove();
      }
      setTimeout(() => document.body.appendChild(host), 1500); // after plotly has loaded: the script must wait for its output
    })()`);
    await page.waitForSelector('.inferkit-figure[data-interactive="yes"] .js-plotly-plot');
    await context.close();

    const inline = figureOutputHtml(fig, png, { ...size, plotly: 'inline' });
    expect(inline.length).toBeGreaterThan(4_000_000);
    const offline = await open(inline, { cdn: false });
    await offline.page.waitForSelector('.inferkit-figure[data-interactive="yes"] .js-plotly-plot');
    expect(await offline.page.locator('.inferkit-figure img').count()).toBe(0);
    await offline.context.close();
  });
});
