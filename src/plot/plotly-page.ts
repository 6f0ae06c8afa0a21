import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';

/** Most pages with plotly loaded kept per browser for reuse (more are opened for concurrent renders). */
const MAX_IDLE_PAGES = 2;

// Parsing the 4.8 MB plotly bundle costs 1-4 s per page on a small box, far more than drawing;
// pages that already have it are parked here, per browser (dropped with it) and bundle path.
const idle = new WeakMap<Browser, Map<string, Page[]>>();

/**
 * A page of `browser` with plotly.js loaded from `plotlyPath` by file URL and an empty `#plot` div:
 * a parked one if there is one, else a new page (in its own context). Return it with `parkPage`.
 */
export async function takePlotlyPage(browser: Browser, plotlyPath: string, timeoutMs: number): Promise<Page> {
  const parked = idle.get(browser)?.get(plotlyPath);
  for (let page = parked?.pop(); page; page = parked?.pop()) {
    if (!page.isClosed()) {
      page.setDefaultTimeout(timeoutMs);
      return page;
    }
  }
  const page = await browser.newPage();
  page.setDefaultTimeout(timeoutMs);
  const dir = await mkdtemp(join(tmpdir(), 'inferkit-png-'));
  try {
    // A file page loading plotly by file URL: much faster than sending the bundle over CDP.
    const pageFile = join(dir, 'figure.html');
    await writeFile(
      pageFile,
      `<!DOCTYPE html><html><head><meta charset="utf-8"><script src="${pathToFileURL(plotlyPath).href}"></script></head>` +
        '<body style="margin:0;background:#fff"><div id="plot"></div></body></html>',
    );
    // `load` waits for the script; the page no longer needs the file afterwards.
    await page.goto(pathToFileURL(pageFile).href, { waitUntil: 'load' });
    return page;
  } catch (e) {
    await page.close().catch(() => undefined);
    throw e;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Clears the figure from a page taken with `takePlotlyPage` and keeps it for the next render (or closes it). */
export async function parkPage(browser: Browser, plotlyPath: string, page: Page): Promise<void> {
  let byPath = idle.get(browser);
  if (!byPath) {
    byPath = new Map();
    idle.set(browser, byPath);
  }
  const parked = byPath.get(plotlyPath) ?? [];
  byPath.set(plotlyPath, parked);
  if (!browser.isConnected() || page.isClosed() || parked.length >= MAX_IDLE_PAGES) {
    await page.close().catch(() => undefined);
    return;
  }
  try {
    await page.evaluate(() => {
      const g = globalThis as unknown as { Plotly: { purge(el: unknown): void }; document: { getElementById(id: string): unknown } };
      g.Plotly.purge(g.document.getElementById('plot'));
    });
    parked.push(page);
  } catch {
    await page.close().catch(() => undefined);
  }
}
