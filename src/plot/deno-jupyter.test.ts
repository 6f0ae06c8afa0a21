import { afterAll, describe, expect, it } from 'vitest';
import { Frame } from '../data/frame/frame.js';
import { denoDisplay, denoJupyter, JUPYTER_DISPLAY, type DenoJupyter, type MimeBundle } from './deno-jupyter.js';
import { displayFigure } from './display-figure.js';
import { displayFrame } from './display-frame.js';
import type { PlotlyFigure } from './figure.js';
import { closeRenderer } from './render-png.js';

/** Records what would go to Deno's kernel; each display resolves a tick later, as Deno's does (it awaits the formatting). */
function recorder(): DenoJupyter & { sent: Array<{ obj: unknown; raw?: boolean }> } {
  const sent: Array<{ obj: unknown; raw?: boolean }> = [];
  return {
    sent,
    display: async (obj, options) => {
      await new Promise((r) => setTimeout(r, 5));
      sent.push({ obj, raw: options?.raw });
    },
  };
}

describe("inferkit's objects in Deno's Jupyter kernel", () => {
  afterAll(() => closeRenderer());

  it('a Frame carries Symbol.for("Jupyter.display"): the HTML table and the text table, so a cell ending with it shows the table', () => {
    const frame = Frame.fromRows([
      { id: 'Nile', timestamp: '1971-01-01T00:00:00Z', mean: 853.5 },
      { id: 'Nile', timestamp: '1972-01-01T00:00:00Z', mean: 853.5 },
    ]);
    expect(JUPYTER_DISPLAY).toBe(Symbol.for('Jupyter.display'));
    const bundle = (frame as unknown as Record<symbol, () => Record<string, string>>)[Symbol.for('Jupyter.display')]();
    expect(Object.keys(bundle).sort()).toEqual(['text/html', 'text/plain']);
    expect(bundle['text/html']).toContain('>1972-01-01T00:00:00Z</td>');
    expect(bundle['text/html']).toContain('2 rows × 3 columns');
    expect(bundle['text/plain']).toBe(frame.toString());
  });

  it('is not detected under Node (tslab keeps its display)', () => {
    expect(denoJupyter()).toBeUndefined();
  });

  it('displayFrame and displayFigure through Deno.jupyter.display: raw bundles, sent before they return', async () => {
    const jupyter = recorder();
    const display = denoDisplay(jupyter);
    await displayFrame(Frame.fromRows([{ a: 1 }]), { display });
    expect(jupyter.sent).toHaveLength(1);
    expect(jupyter.sent[0].raw).toBe(true);
    expect(Object.keys(jupyter.sent[0].obj as MimeBundle)).toEqual(['text/html']);

    const fig: PlotlyFigure = { data: [{ type: 'scatter', x: [1, 2, 3], y: [2, 1, 3], name: 'mean' }], layout: { title: { text: 'Nile' } } };
    const shown = await displayFigure(fig, { width: 300, height: 200, display });
    expect(jupyter.sent).toHaveLength(2);
    const bundle = jupyter.sent[1].obj as MimeBundle;
    // One output: the PNG-backed interactive HTML, plotly's own JSON (drawn natively by VS Code), and the summary line.
    expect(Object.keys(bundle).sort()).toEqual(['application/vnd.plotly.v1+json', 'text/html', 'text/plain']);
    expect(bundle['text/html']).toBe(shown.html);
    expect(bundle['text/html']).toContain('data:image/png;base64,');
    expect(bundle['application/vnd.plotly.v1+json']).toEqual({ data: fig.data, layout: { title: { text: 'Nile' }, width: 300, height: 200 } });
    expect(bundle['text/plain']).toMatch(/^\[figure shown: 300×200 PNG, \d+ kB, interactive\]$/);

    await displayFigure(fig, { width: 300, height: 200, display, interactive: false });
    const png = jupyter.sent[2].obj as MimeBundle;
    expect(Object.keys(png)).toEqual(['image/png']);
    expect(Buffer.from(png['image/png'] as string, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
  });
});
