import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PlotlyFigure } from './figure.js';
import { plotlyBundlePath, plotlyCdnUrl, scriptJson, type RenderHtmlOptions } from './render-html.js';

/** Options of {@link figureOutputHtml}. */
export interface FigureOutputHtmlOptions {
  /** Width of the image and of the interactive chart, in CSS pixels. */
  width: number;
  /** Height of the image and of the interactive chart, in CSS pixels. */
  height: number;
  /**
   * How the output gets plotly.js: `cdn` loads the installed version from cdn.plot.ly once per page (a few
   * kB per output, needs the network to become interactive); `inline` embeds the 4.8 MB bundle in the
   * output (works offline, makes the notebook file big); `{ src }` is used as the script URL. @default "cdn"
   */
  plotly?: RenderHtmlOptions['plotly'];
  /** Path of `plotly.min.js` (for `inline`, and the version for `cdn`). @default resolved from `plotly.js-dist-min` */
  plotlyPath?: string;
}

// Outputs of one process get distinct ids in order, so a notebook re-run stores the same ids.
let outputs = 0;

/**
 * A notebook output (one `text/html` display) that shows the PNG and turns it into the interactive chart
 * where scripts run: a `<div>` with the PNG as an `<img>`, then a script that loads plotly.js (from the
 * CDN by default) and replaces the image with `Plotly.newPlot`. Where scripts do not run (GitHub's
 * viewer, an untrusted notebook, nbconvert HTML offline) or plotly cannot load, the image stays.
 */
export function figureOutputHtml(fig: PlotlyFigure, png: Uint8Array, options: FigureOutputHtmlOptions): string {
  const { width, height } = options;
  const figJson = scriptJson({ data: fig.data, layout: { ...fig.layout, width, height } });
  outputs += 1;
  const id = `inferkit-fig-${createHash('sha256').update(`${outputs}:${figJson}`).digest('hex').slice(0, 16)}`;
  const mode = options.plotly ?? 'cdn';
  const title = typeof fig.layout.title === 'object' && fig.layout.title !== null ? (fig.layout.title as { text?: unknown }).text : fig.layout.title;
  // The title is HTML already (baseLayout escapes it): tags dropped, quotes and brackets removed.
  const alt = typeof title === 'string' && title !== '' ? title.replace(/<[^>]*>/g, '').replace(/["<>]/g, '') : 'chart';
  const image =
    `<img src="data:image/png;base64,${Buffer.from(png).toString('base64')}" width="${width}" height="${height}" ` +
    `alt="${alt}" style="max-width:100%;height:auto">`;
  const loader =
    mode === 'inline'
      ? `if(!w.Plotly){${readFileSync(options.plotlyPath ?? plotlyBundlePath(), 'utf8').replace(/<\/script/gi, '<\\/script')}\n}draw();`
      : `load(${scriptJson(mode === 'cdn' ? plotlyCdnUrl() : mode.src)});`;
  return (
    `<div id="${id}" class="inferkit-figure" style="width:${width}px;max-width:100%">${image}</div>\n` +
    `<script>${drawScript(id, figJson, loader)}</script>`
  );
}

/**
 * ES5 run by the front end. Finds its `<div>` (by id, or the element before this script when the front end
 * evaluates scripts before attaching the output), waits (bounded) until it is in the page, draws the chart
 * and removes the image only once the chart is drawn. One `<script src>` per URL and page, shared by outputs.
 */
function drawScript(id: string, figJson: string, loader: string): string {
  return `(function(){var w=window,d=document,id=${JSON.stringify(id)},fig=${figJson},me=d.currentScript,tries=0;
function box(){var p=me&&me.previousElementSibling;return p&&p.id===id?p:d.getElementById(id);}
function draw(){if(!w.Plotly)return;var b=box();
if(!b||!d.body.contains(b)){if(++tries<50)setTimeout(draw,100);return;}
if(b.getAttribute('data-interactive'))return;
b.setAttribute('data-interactive','drawing');var el=d.createElement('div');b.appendChild(el);
w.Plotly.newPlot(el,fig.data,fig.layout,{displaylogo:false}).then(function(){var img=b.querySelector('img');if(img)b.removeChild(img);b.setAttribute('data-interactive','yes');},
function(){b.removeChild(el);b.removeAttribute('data-interactive');});}
function load(src){if(w.Plotly)return draw();var q=w.inferkitPlotly=w.inferkitPlotly||{};if(q[src]){q[src].push(draw);return;}q[src]=[draw];
var s=d.createElement('script');s.src=src;s.charset='utf-8';
s.onload=function(){var f=q[src]||[];q[src]=null;for(var i=0;i<f.length;i++)f[i]();};
s.onerror=function(){q[src]=null;};d.head.appendChild(s);}
${loader}})();`;
}
