import { DataFrame } from 'danfojs-node';
import { describe, expect, it } from 'vitest';
import { InferkitError } from '../errors.js';
import { displayFrame } from './display-frame.js';

describe('displayFrame outside a tslab kernel', () => {
  it('says it needs a tslab kernel and to pass { display }, instead of tslab\'s "Not ready"', async () => {
    // vitest is no kernel: tslab loads, but its display is not connected to Jupyter.
    const err = await displayFrame(new DataFrame({ a: [1, 2] })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InferkitError);
    expect(err).toMatchObject({ code: 'config', param: 'display' });
    expect((err as Error).message).toBe(
      "displayFrame needs a running Jupyter kernel (tslab, or Deno's); outside one, pass { display }: an object with html(html: string), or call frameHtml(frame) for the HTML",
    );
    expect((err as Error).message).not.toContain('Not ready');
  });

  it('shows the table through the display it is given, outside a kernel', async () => {
    const shown: string[] = [];
    await displayFrame(new DataFrame({ a: [1, 2] }), { display: { html: (h) => shown.push(h) } });
    expect(shown).toHaveLength(1);
    expect(shown[0]).toContain('2 rows × 1 columns');
  });
});
