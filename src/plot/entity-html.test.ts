import { describe, expect, it } from 'vitest';
import { entitiesHtml, entityHtml } from './entity-html.js';

describe('entityHtml', () => {
  it('highlights entities and escapes every piece of text', () => {
    const text = 'Ada <script>x</script> met "Bob" & co in Paris';
    const html = entityHtml(text, [
      { entity_group: 'PER', start: 0, end: 3, score: 0.987 },
      { entity_group: 'PER', start: 28, end: 31 },
      { entity: 'B-LOC', start: 41, end: 46 },
      { entity_group: 'ORG', start: 1, end: 5 },
    ], { scores: true });
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt; met &quot;');
    expect(html.match(/<mark /g)).toHaveLength(3);
    expect(html).toContain('Ada<sup style="color:#1f77b4;font-weight:bold;font-size:0.7em;margin-left:2px">PER 0.99</sup></mark>');
    expect(html).toContain('>Paris<sup');
    expect(html).toContain('>LOC</sup>');
  });

  it('keeps colours consistent across texts and clamps spans', () => {
    const html = entitiesHtml([
      { text: 'Acme', entities: [{ entity_group: 'PRODUCT', start: 0, end: 99 }] },
      { text: 'x Acme', entities: [{ entity_group: 'PRODUCT', start: 2, end: 6 }] },
    ]);
    const colours = [...html.matchAll(/border:1px solid (#[0-9a-f]{6})/g)].map((m) => m[1]);
    expect(colours).toHaveLength(2);
    expect(colours[0]).toBe(colours[1]);
  });
});
