import { afterAll, describe, expect, it } from 'vitest';
import { InferkitError } from '../errors.js';
import { displayFigure } from './display-figure.js';
import type { PlotlyFigure } from './figure.js';
import { closeRenderer } from './render-png.js';

const fig: PlotlyFigure = { data: [{ type: 'scatter', x: [1, 2, 3], y: [2, 1, 3] }], layout: {} };

describe('displayFigure outside a tslab kernel', () => {
  afterAll(() => closeRenderer());

  it('says it needs a tslab kernel and to pass { display }, for the interactive chart and the PNG alone', async () => {
    // vitest is no kernel: the PNG renders (headless Chromium), then tslab's display is not connected to Jupyter.
    for (const interactive of [true, false]) {
      const err = await displayFigure(fig, { width: 300, height: 200, interactive }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InferkitError);
      expect(err).toMatchObject({ code: 'config', param: 'display' });
      expect((err as Error).message).toMatch(/^displayFigure needs a running tslab kernel \(Jupyter with the tslab kernel\); outside one, pass \{ display \}: an object with png\(bytes: Uint8Array\)/);
      expect((err as Error).message).not.toContain('Not ready');
    }
  });

  it('shows the PNG through a display that only takes images', async () => {
    const shown: Uint8Array[] = [];
    const { png, html } = await displayFigure(fig, { width: 300, height: 200, display: { png: (b) => shown.push(b) } });
    expect(shown).toEqual([png]);
    expect(html).toBeUndefined();
    expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
  });
});
