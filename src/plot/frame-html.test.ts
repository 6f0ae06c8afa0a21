import { DataFrame } from 'danfojs-node';
import { describe, expect, it } from 'vitest';
import { displayFrame } from './display-frame.js';
import { frameHtml } from './frame-html.js';

describe('frameHtml', () => {
  it('writes a header, row numbers and escaped cells, with the shape underneath', () => {
    const df = new DataFrame({ id: ['a<b', 'c'], value: [1.23456789, 2] });
    const html = frameHtml(df);
    expect(html).toContain('>id</th>');
    expect(html).toContain('>value</th>');
    expect(html).toContain('>a&lt;b</td>');
    expect(html).toContain('>1.23457</td>');
    expect(html).toContain('>2</td>');
    expect(html).toContain('2 rows × 2 columns');
    expect(html).not.toContain('more rows');
  });

  it('cuts a long frame in the middle, keeping the first and last rows', () => {
    const df = new DataFrame({ x: Array.from({ length: 100 }, (_, i) => i * 10) });
    const html = frameHtml(df, { maxRows: 6, tail: 2 });
    const rows = html.match(/<tr>/g) ?? [];
    expect(rows).toHaveLength(1 + 6 + 1);
    expect(html).toContain('94 more rows');
    expect(html).toContain('>30</td>');
    expect(html).not.toContain('>40</td>');
    expect(html).toContain('>980</td>');
    expect(html).toContain('>990</td>');
  });
});

describe('displayFrame', () => {
  it('hands the table to the display and returns nothing', async () => {
    const shown: string[] = [];
    const r = await displayFrame(new DataFrame({ a: [1] }), { display: { html: (h) => shown.push(h) } });
    expect(r).toBeUndefined();
    expect(shown).toHaveLength(1);
    expect(shown[0]).toContain('<table');
  });
});
