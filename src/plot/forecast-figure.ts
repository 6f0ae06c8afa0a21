import { InferkitError } from '../errors.js';
import { PALETTE, baseLayout, escapeHtml, facetGrid, withAlpha, type PlotlyFigure, type PlotlyTrace } from './figure.js';
import { pointsBySeries, type ForecastSource, type HistorySource, type SeriesPoints } from './series-points.js';

/** Options of `forecastFigure`. */
export interface ForecastFigureOptions {
  /** Quantile pairs to shade, e.g. `[[0.1, 0.9], [0.25, 0.75]]`. @default every symmetric pair in the forecast */
  bands?: ReadonlyArray<readonly [number, number]>;
  /** `facets`: one subplot per series; `dropdown`: one plot with a series selector. @default facets up to 12 series */
  mode?: 'facets' | 'dropdown';
  /** Series (ids, or `id · variable`) to show, in this order. @default all forecast series */
  series?: readonly string[];
  /** Show only the last N history points of each series. @default all */
  historyTail?: number;
  /** Facet columns. @default 1 up to 3 series, else 2 */
  columns?: number;
  /** Figure title. */
  title?: string;
}

const MEAN_COLOR = PALETTE[0];
const HISTORY_COLOR = '#404040';

/** Quantile levels present as `q<level>` columns, ascending. */
function levelsOf(points: Iterable<SeriesPoints>): number[] {
  const levels = new Set<number>();
  for (const p of points) {
    for (const k of p.columns.keys()) {
      if (/^q\d/.test(k)) {
        levels.add(Number(k.slice(1)));
      }
    }
  }
  return [...levels].sort((a, b) => a - b);
}

/** Symmetric pairs (l, 1 − l) among the levels, outermost first. */
export function defaultBands(levels: readonly number[]): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (const lo of levels) {
    const hi = levels.find((h) => Math.abs(h - (1 - lo)) < 1e-9);
    if (lo < 0.5 && hi !== undefined) {
      pairs.push([lo, hi]);
    }
  }
  return pairs;
}

function seriesTraces(name: string, h: SeriesPoints | undefined, f: SeriesPoints, bands: ReadonlyArray<readonly [number, number]>, axes: { x: string; y: string }, first: boolean, tail?: number): PlotlyTrace[] {
  const traces: PlotlyTrace[] = [];
  const ref = { xaxis: axes.x, yaxis: axes.y };
  if (h) {
    const from = tail === undefined ? 0 : Math.max(0, h.x.length - tail);
    traces.push({ type: 'scatter', mode: 'lines', name: 'history', legendgroup: 'history', showlegend: first, x: h.x.slice(from), y: (h.columns.get('value') ?? []).slice(from), line: { color: HISTORY_COLOR, width: 1.5 }, ...ref, meta: name });
  }
  bands.forEach(([lo, hi], b) => {
    const label = `${lo}–${hi}`;
    const alpha = 0.15 + (0.25 * b) / Math.max(1, bands.length);
    traces.push({ type: 'scatter', mode: 'lines', name: `q${lo}`, legendgroup: label, showlegend: false, hoverinfo: 'skip', x: f.x, y: f.columns.get(`q${lo}`), line: { width: 0, color: MEAN_COLOR }, ...ref, meta: name });
    traces.push({ type: 'scatter', mode: 'lines', name: `band ${label}`, legendgroup: label, showlegend: first, fill: 'tonexty', fillcolor: withAlpha(MEAN_COLOR, Number(alpha.toFixed(3))), x: f.x, y: f.columns.get(`q${hi}`), line: { width: 0, color: MEAN_COLOR }, ...ref, meta: name });
  });
  traces.push({ type: 'scatter', mode: 'lines', name: 'mean', legendgroup: 'mean', showlegend: first, x: f.x, y: f.columns.get('mean'), line: { color: MEAN_COLOR, width: 2 }, ...ref, meta: name });
  return traces;
}

function startMarker(x: string | number | undefined, axes: { x: string; y: string }): Record<string, unknown> {
  return { type: 'line', xref: axes.x, yref: `${axes.y} domain`, x0: x, x1: x, y0: 0, y1: 1, line: { color: '#888', width: 1, dash: 'dot' } };
}

/**
 * A forecast figure: history, mean forecast and shaded quantile bands for each series, with the forecast
 * start marked by a dotted line. Several series become facets (subplots) or a dropdown selector.
 * Pure: returns Plotly `{data, layout}`; render with `renderHtml`/`renderPng`.
 */
export function forecastFigure(history: HistorySource | null, forecast: ForecastSource, options: ForecastFigureOptions = {}): PlotlyFigure {
  const past = history === null ? new Map<string, SeriesPoints>() : pointsBySeries(history);
  const future = pointsBySeries(forecast);
  const names = [...(options.series ?? future.keys())];
  const unknown = names.filter((n) => !future.has(n));
  if (unknown.length > 0) {
    throw new InferkitError('invalid_request', `forecastFigure: no forecast for series ${unknown.join(', ')}; have ${[...future.keys()].join(', ')}`, { param: 'series' });
  }
  const levels = levelsOf(names.map((n) => future.get(n) as SeriesPoints));
  const bands = options.bands ?? defaultBands(levels);
  const missing = bands.flat().filter((l) => !levels.includes(l));
  if (missing.length > 0) {
    throw new InferkitError('invalid_request', `forecastFigure: no quantile column for level(s) ${missing.join(', ')}; forecast has ${levels.join(', ') || 'none'}`, { param: 'bands' });
  }
  const mode = options.mode ?? (names.length <= 12 ? 'facets' : 'dropdown');
  const layout = baseLayout(options.title);
  const data: PlotlyTrace[] = [];
  if (mode === 'dropdown') {
    const owner: number[] = [];
    names.forEach((n, k) => {
      const traces = seriesTraces(n, past.get(n), future.get(n) as SeriesPoints, bands, { x: 'x', y: 'y' }, true, options.historyTail);
      traces.forEach((t) => (t.visible = k === 0, data.push(t), owner.push(k)));
    });
    const shapes = names.map((n) => [startMarker(future.get(n)?.x[0], { x: 'x', y: 'y' })]);
    layout.shapes = shapes[0];
    layout.xaxis = { showgrid: true, gridcolor: '#eee' };
    layout.yaxis = { showgrid: true, gridcolor: '#eee', title: { text: escapeHtml(names[0] ?? '') } };
    layout.updatemenus = [{
      type: 'dropdown', x: 0, y: 1.12, xanchor: 'left', yanchor: 'top', showactive: true,
      buttons: names.map((n, k) => ({ label: escapeHtml(n), method: 'update', args: [{ visible: owner.map((o) => o === k) }, { shapes: shapes[k], 'yaxis.title.text': escapeHtml(n) }] })),
    }];
    layout.height = 420;
    return { data, layout };
  }
  const columns = options.columns ?? (names.length <= 3 ? 1 : 2);
  const grid = facetGrid(names.length, columns);
  const shapes: Record<string, unknown>[] = [];
  const annotations: Record<string, unknown>[] = [];
  names.forEach((n, k) => {
    const g = grid[k];
    data.push(...seriesTraces(n, past.get(n), future.get(n) as SeriesPoints, bands, g, k === 0, options.historyTail));
    layout[g.xaxis] = { domain: g.xDomain, anchor: g.y, showgrid: true, gridcolor: '#eee' };
    layout[g.yaxis] = { domain: g.yDomain, anchor: g.x, showgrid: true, gridcolor: '#eee' };
    shapes.push(startMarker(future.get(n)?.x[0], g));
    annotations.push({ text: `<b>${escapeHtml(n)}</b>`, xref: 'paper', yref: 'paper', x: (g.xDomain[0] + g.xDomain[1]) / 2, y: g.yDomain[1], xanchor: 'center', yanchor: 'bottom', showarrow: false });
  });
  layout.shapes = shapes;
  layout.annotations = annotations;
  layout.height = Math.max(320, Math.ceil(names.length / columns) * 240 + 80);
  return { data, layout };
}
