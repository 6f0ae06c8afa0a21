import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../../src/plot/chromium-pool.js';
import { plotlyBundlePath, plotlyCdnUrl } from '../../src/plot/render-html.js';
import { decodePng } from './png-pixels.js';
import { tempDir } from '../fixtures/temp-dirs.js';

const run = promisify(execFile);
const PY = process.env.INFERKIT_PYTHON ?? '/usr/bin/python3';
const REQUIRE_JS = '/usr/share/javascript/requirejs/require.min.js';

interface Output {
  output_type: string;
  data?: Record<string, string | string[]>;
  text?: string | string[];
}
const join1 = (v: string | string[] | undefined): string => (Array.isArray(v) ? v.join('') : v ?? '');

const cells = [
  `import { displayFigure } from './src/index';
const fig = { data: [{ type: 'scatter', y: [1, 3, 2, 4], name: 'demo' }], layout: { title: { text: 'Interactive' } } };
const shown = await displayFigure(fig, { width: 500, height: 300 });`,
  `const still = await displayFigure(fig, { width: 500, height: 300, interactive: false });`,
];

describe('displayFigure in the tslab kernel (nbconvert, then the exported HTML in Chromium)', () => {
  it('stores one HTML output with the PNG inside that becomes the interactive chart in a browser', { timeout: 300_000 }, async () => {
    const dir = tempDir('inferkit-nbfig-');
    const notebook = {
      cells: cells.map((source, i) => ({ cell_type: 'code', id: `fig-${i}`, metadata: {}, execution_count: null, outputs: [], source })),
      metadata: { kernelspec: { display_name: 'TypeScript', language: 'typescript', name: 'tslab' } },
      nbformat: 4,
      nbformat_minor: 5,
    };
    await writeFile(join(dir, 'figure.ipynb'), JSON.stringify(notebook));
    const out = join(dir, 'out');
    await run('bash', ['scripts/run-notebooks.sh', join(dir, 'figure.ipynb')], { env: { ...process.env, NOTEBOOK_OUT: out }, maxBuffer: 16 << 20 }).catch(
      (e: { stdout?: string }) => {
        throw new TypeError(`notebook failed:\n${e.stdout ?? ''}`);
      },
    );
    const executed = JSON.parse(await readFile(join(out, 'figure.ipynb'), 'utf8')) as { cells: Array<{ outputs: Output[] }> };
    const [interactive, still] = executed.cells.map((c) => c.outputs);
    // One display, HTML only: the PNG fallback and the loader of the interactive chart together, a few kB.
    expect(interactive.map((o) => [o.output_type, Object.keys(o.data ?? {})])).toEqual([['display_data', ['text/html']]]);
    const html = join1(interactive[0].data?.['text/html']);
    const b64 = /<img src="data:image\/png;base64,([A-Za-z0-9+/=]+)"/.exec(html)?.[1] ?? '';
    const img = decodePng(new Uint8Array(Buffer.from(b64, 'base64')));
    expect([img.width, img.height]).toEqual([500, 300]);
    expect(html).toContain(JSON.stringify(plotlyCdnUrl()));
    expect(html).toContain('Plotly.newPlot');
    expect(html.length).toBeLessThan(b64.length + 6000);
    expect(still.map((o) => [o.output_type, Object.keys(o.data ?? {})])).toEqual([['display_data', ['image/png']]]);

    // nbconvert's HTML export (the lab template loads require.js, as the classic notebook does).
    await run(PY, ['-m', 'nbconvert', '--to', 'html', '--output-dir', dir, join(out, 'figure.ipynb')], { maxBuffer: 16 << 20 });
    const page = pathToFileURL(join(dir, 'figure.html')).href;
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS] });
    try {
      for (const javaScriptEnabled of [true, false]) {
        const context = await browser.newContext({ javaScriptEnabled });
        const cdn: string[] = [];
        await context.route(/^https?:/, async (route) => {
          const url = route.request().url();
          if (url.startsWith('https://cdn.plot.ly/')) {
            cdn.push(url);
            await route.fulfill({ contentType: 'application/javascript', body: readFileSync(plotlyBundlePath()) });
          } else if (/require(\.min)?\.js$/.test(url) && existsSync(REQUIRE_JS)) {
            await route.fulfill({ contentType: 'application/javascript', body: readFileSync(REQUIRE_JS) });
          } else {
            await route.abort();
          }
        });
        const tab = await context.newPage();
        await tab.goto(page);
        if (javaScriptEnabled) {
          await tab.waitForSelector('.inferkit-figure[data-interactive="yes"] .js-plotly-plot .scatterlayer .trace', { timeout: 60_000 });
          expect(await tab.locator('.inferkit-figure img').count()).toBe(0);
          expect(cdn).toEqual([plotlyCdnUrl()]);
          // It drew with require.js's AMD loader on the page, as in the classic notebook.
          expect(await tab.evaluate('typeof define === "function" && Boolean(define.amd)')).toBe(existsSync(REQUIRE_JS));
        } else {
          const fallback = tab.locator('.inferkit-figure img');
          await expect.poll(() => fallback.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBe(500);
          expect(await tab.locator('.js-plotly-plot').count()).toBe(0);
        }
        // The static output stays an image either way.
        expect(await tab.locator('img:not(.inferkit-figure img)').count()).toBe(1);
        await context.close();
      }
    } finally {
      await browser.close();
    }
  });
});
