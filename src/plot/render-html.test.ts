import { describe, expect, it } from 'vitest';
import { plotlyCdnUrl, renderHtml } from './render-html.js';

const fig = { data: [{ type: 'scatter', y: [1, 2] }], layout: { title: { text: '</script>' } } };

describe('renderHtml', () => {
  it('references the installed plotly version on the CDN when asked: a small page', () => {
    const html = renderHtml(fig, { plotly: 'cdn' });
    expect(plotlyCdnUrl()).toMatch(/^https:\/\/cdn\.plot\.ly\/plotly-\d+\.\d+\.\d+\.min\.js$/);
    expect(html).toContain(`<script src="${plotlyCdnUrl()}" charset="utf-8"></script>`);
    expect(html.length).toBeLessThan(2000);
    expect(html).not.toContain('</script>"');
  });

  it('inlines the bundle by default and takes a given src', () => {
    expect(renderHtml(fig).length).toBeGreaterThan(4_000_000);
    expect(renderHtml(fig, { plotly: { src: 'plotly.min.js' } })).toContain('<script src="plotly.min.js" charset="utf-8"></script>');
  });
});
