import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PlotlyFigure } from './figure.js';
import { plotlyBundlePath } from './render-html.js';
import { closeRenderer, renderPng } from './render-png.js';

const fig: PlotlyFigure = { data: [{ type: 'scatter', x: [1, 2, 3], y: [2, 1, 3] }], layout: { title: { text: 'timeout' } } };

// Issue 26 item 5: at load 24-30 on 2 cores, loading plotly into a fresh page outlasted the old 30 s limit and the
// notebook cell failed ("page.goto: Timeout 30000ms exceeded"). The limit is larger now, and a timeout says which
// option to raise.
describe('renderPng timeouts', () => {
  afterAll(() => closeRenderer());

  it('a step that runs out of time names the timeoutMs option', { timeout: 300_000 }, async () => {
    expect((await renderPng(fig)).length).toBeGreaterThan(1000); // the default limit: the browser starts and draws
    const dir = await mkdtemp(join(tmpdir(), 'inferkit-plotly-copy-'));
    try {
      // Another copy of plotly needs a new page, whose load cannot finish in 1 ms.
      const copy = join(dir, 'plotly.min.js');
      await copyFile(plotlyBundlePath(), copy);
      await expect(renderPng(fig, { plotlyPath: copy, timeoutMs: 1 })).rejects.toThrow(
        /^Chromium could not load plotly from .*Timeout 1ms exceeded.* \(a busy machine is slower: pass timeoutMs above 1\)$/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
