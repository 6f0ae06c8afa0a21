import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { InferkitError } from '../errors.js';
import { inferkitPackageRoot } from '../package-root.js';
import { escapeHtml, type PlotlyFigure } from './figure.js';

/** Options of `renderHtml`. */
export interface RenderHtmlOptions {
  /** Page title. @default "inferkit figure" */
  title?: string;
  /**
   * How the page gets plotly.js: `inline` embeds the 4.8 MB bundle (a self-contained file that opens
   * offline); `cdn` references the installed version on cdn.plot.ly (a few kB, needs the network to view);
   * `{ src }` is used as the `<script src>` (e.g. a relative path to `plotly.min.js`). @default "inline"
   */
  plotly?: 'inline' | 'cdn' | { src: string };
  /** Path of `plotly.min.js`. @default resolved from `plotly.js-dist-min` under `process.cwd()` */
  plotlyPath?: string;
}

/**
 * Absolute path of plotly.js-dist-min's bundle, resolved from `root`, else from the inferkit package
 * `root` sees (a consumer's `node_modules/inferkit`, where npm may have nested it). No `import.meta`:
 * works under tslab too.
 */
export function plotlyBundlePath(root: string = process.cwd()): string {
  try {
    return createRequire(join(root, 'package.json')).resolve('plotly.js-dist-min');
  } catch (e) {
    const pkg = inferkitPackageRoot(root);
    if (pkg !== undefined) {
      try {
        return createRequire(join(pkg, 'package.json')).resolve('plotly.js-dist-min');
      } catch {
        // reported below with the first error
      }
    }
    throw new InferkitError('config', `plotly.js-dist-min not found from ${root}; run npm install or pass plotlyPath`, { cause: e });
  }
}

/** cdn.plot.ly URL of the plotly.js version installed under `root` (the one the PNGs are drawn with). */
export function plotlyCdnUrl(root: string = process.cwd()): string {
  const bundle = plotlyBundlePath(root);
  const pkg = JSON.parse(readFileSync(join(bundle, '..', 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string' || !/^\d+\.\d+\.\d+$/.test(pkg.version)) {
    throw new InferkitError('config', `plotly.js-dist-min at ${bundle} has no usable version`);
  }
  return `https://cdn.plot.ly/plotly-${pkg.version}.min.js`;
}

/** JSON safe inside `<script>`: `<` escaped so text cannot close the tag. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** A standalone HTML page drawing the figure (interactive, responsive). */
export function renderHtml(fig: PlotlyFigure, options: RenderHtmlOptions = {}): string {
  const mode = options.plotly ?? 'inline';
  const script =
    mode === 'inline'
      ? `<script>${readFileSync(options.plotlyPath ?? plotlyBundlePath(), 'utf8').replace(/<\/script/gi, '<\\/script')}</script>`
      : `<script src="${escapeHtml(mode === 'cdn' ? plotlyCdnUrl() : mode.src)}" charset="utf-8"></script>`;
  return [
    '<!DOCTYPE html>',
    `<html><head><meta charset="utf-8"><title>${escapeHtml(options.title ?? 'inferkit figure')}</title>`,
    '<style>html,body{margin:0;background:#fff}#plot{width:100%}</style>',
    script,
    '</head><body><div id="plot"></div>',
    `<script>const fig=${scriptJson(fig)};Plotly.newPlot('plot',fig.data,fig.layout,{responsive:true});</script>`,
    '</body></html>',
  ].join('\n');
}
