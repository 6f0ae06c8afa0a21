import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { format, inspect } from 'node:util';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InferkitError } from '../errors.js';
import { displayFigure } from './display-figure.js';
import type { PlotlyFigure } from './figure.js';
import { closeRenderer, rendererStats } from './render-png.js';

const fig: PlotlyFigure = { data: [{ type: 'scatter', x: [1, 2, 3], y: [2, 1, 3] }], layout: {} };

describe('displayFigure outside a tslab kernel', () => {
  afterAll(() => closeRenderer());

  it('says it needs a tslab kernel and to pass { display }, before rendering: no Chromium starts, no file is written', async () => {
    // vitest is no kernel: tslab loads, but its display is not connected to Jupyter.
    const dir = await mkdtemp(join(tmpdir(), 'inferkit-display-figure-'));
    try {
      const before = rendererStats();
      for (const interactive of [true, false]) {
        const file = join(dir, `chart-${interactive}.html`);
        const err = await displayFigure(fig, { width: 300, height: 200, interactive, file }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(InferkitError);
        expect(err).toMatchObject({ code: 'config', param: 'display' });
        expect((err as Error).message).toMatch(/^displayFigure needs a running Jupyter kernel \(tslab, or Deno's\); outside one, pass \{ display \}: an object with png\(bytes: Uint8Array\)/);
        expect((err as Error).message).not.toContain('Not ready');
        expect(existsSync(file)).toBe(false);
      }
      expect(rendererStats(), 'no Chromium was launched').toEqual(before);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('shows the PNG through a display that only takes images', async () => {
    const shown: Uint8Array[] = [];
    const { png, html } = await displayFigure(fig, { width: 300, height: 200, display: { png: (b) => shown.push(b) } });
    expect(shown).toEqual([png]);
    expect(html).toBeUndefined();
    expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
  });

  it('returns what a notebook prints as one line (a cell ending in await displayFigure(…) shows no bytes)', async () => {
    const html: string[] = [];
    const shown = await displayFigure(fig, { width: 300, height: 200, display: { png: () => undefined, html: (h) => html.push(h) } });
    // tslab prints a cell's last value with console.log, i.e. util.format → util.inspect.
    expect(format(shown)).toMatch(/^\[figure shown: 300×200 PNG, \d+ kB, interactive\]$/);
    expect(inspect(shown)).toBe(String(shown));
    expect(shown.html).toBe(html[0]);
    expect(Object.keys(shown)).toEqual(['png', 'html']);
  });
});
