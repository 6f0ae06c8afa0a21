import { InferkitError } from '../errors.js';
import { PALETTE, baseLayout, escapeHtml, facetGrid, withAlpha, type PlotlyFigure, type PlotlyTrace } from './figure.js';
import { pointsBySeries, type ForecastSource, type HistorySource, type SeriesPoints } from './series-points.js';
import { coveringRange, frequenciesOf, seriesId, unitsOf, xTitle, yTitle } from './axes.js';

/** Options of `forecastFigure`. */
export interface ForecastFigureOptions {
  /** Quantile pairs to shade, e.g. `[[0.1, 0.9], [0.25, 0.75]]`. @default every symmetric pair in the forecast */
  bands?: ReadonlyArray<readonly [number, number]>;
  /** `facets`: one subplot per series; `dropdown`: one plot with a selector over every series. @default facets */
  mode?: 'facets' | 'dropdown';
  /** Series (ids, or `id · variable`) to show, in this order. @default the first `maxSeries` forecast series (all in dropdown mode) */
  series?: readonly string[];
  /** Facets drawn when `series` is not given; a note says how many were left out. @default 6 */
  maxSeries?: number;
  /** History points shown per series: a count, or `'all'`. @default 4 × the series' horizon */
  historyTail?: number | 'all';
  /** History value column (rows or frame) and the y-axis title where no unit is known. @default "value" (else "y") */
  valueColumn?: string;
  /** Units for the y-axis titles, one for all or by series id; else an input's or forecast's extra `unit` field. */
  units?: string | Readonly<Record<string, string>>;
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

interface SeriesView {
  name: string;
  history: SeriesPoints | undefined;
  forecast: SeriesPoints;
}

interface ViewOptions {
  bands: ReadonlyArray<readonly [number, number]>;
  tail: number | 'all' | undefined;
  valueColumn: string;
}

/** The history points shown: the last `tail` (default 4 × horizon), or all. */
function historyShown(v: SeriesView, o: ViewOptions): { x: (string | number)[]; y: (number | null)[] } | undefined {
  if (!v.history) {
    return undefined;
  }
  const tail = o.tail === 'all' ? v.history.x.length : (o.tail ?? 4 * Math.max(1, v.forecast.x.length));
  const from = Math.max(0, v.history.x.length - tail);
  // statsforecast frames call the value `y`.
  const values = v.history.columns.get(o.valueColumn) ?? (o.valueColumn === 'value' ? v.history.columns.get('y') : undefined) ?? [];
  return { x: v.history.x.slice(from), y: values.slice(from) };
}

/** A y range over the shown history, the mean and every band drawn. */
function yRange(v: SeriesView, o: ViewOptions): [number, number] | undefined {
  const cols = [historyShown(v, o)?.y, v.forecast.columns.get('mean'), ...o.bands.flat().map((l) => v.forecast.columns.get(`q${l}`))];
  return coveringRange(cols);
}

function seriesTraces(v: SeriesView, o: ViewOptions, axes: { x: string; y: string }, first: boolean): PlotlyTrace[] {
  const { name, forecast: f } = v;
  const { bands } = o;
  const traces: PlotlyTrace[] = [];
  const ref = { xaxis: axes.x, yaxis: axes.y };
  const h = historyShown(v, o);
  if (h) {
    traces.push({ type: 'scatter', mode: 'lines', name: 'history', legendgroup: 'history', showlegend: first, x: h.x, y: h.y, line: { color: HISTORY_COLOR, width: 1.5 }, ...ref, meta: name });
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

function unitMap(options: ForecastFigureOptions, history: HistorySource | null, forecast: ForecastSource, names: readonly string[]): Map<string, string> {
  const { units } = options;
  if (typeof units === 'string') {
    return new Map(names.map((n) => [n, units]));
  }
  const found = unitsOf(history, forecast);
  for (const [k, u] of Object.entries(units ?? {})) {
    found.set(k, u);
  }
  return found;
}

const axisStyle = { showgrid: true, gridcolor: '#eee', automargin: true };
const axisTitle = (text: string): Record<string, unknown> => ({ text: escapeHtml(text), font: { size: 11 } });

/**
 * A forecast figure: recent history, mean forecast and shaded quantile bands for each series, with the
 * forecast start marked by a dotted line. Each y range covers everything drawn (bands are never clipped);
 * axes are titled (`time (month)`, the value column or variable with its unit). Several series become facets
 * (the first `maxSeries` by default) or a dropdown selector. Pure: returns Plotly `{data, layout}`; render
 * with `renderHtml`/`renderPng`/`displayFigure`.
 */
export function forecastFigure(history: HistorySource | null, forecast: ForecastSource, options: ForecastFigureOptions = {}): PlotlyFigure {
  const past = history === null ? new Map<string, SeriesPoints>() : pointsBySeries(history);
  const future = pointsBySeries(forecast);
  const mode = options.mode ?? 'facets';
  const maxSeries = options.maxSeries ?? 6;
  if (!Number.isInteger(maxSeries) || maxSeries < 1) {
    throw new InferkitError('invalid_request', `forecastFigure: maxSeries must be a positive integer, got ${String(maxSeries)}`, { param: 'maxSeries' });
  }
  const all = [...future.keys()];
  const names = [...(options.series ?? (mode === 'dropdown' ? all : all.slice(0, maxSeries)))];
  const unknown = names.filter((n) => !future.has(n));
  if (unknown.length > 0) {
    throw new InferkitError('invalid_request', `forecastFigure: no forecast for series ${unknown.join(', ')}; have ${all.join(', ')}`, { param: 'series' });
  }
  const tail = options.historyTail;
  if (tail !== undefined && tail !== 'all' && !(Number.isInteger(tail) && tail >= 0)) {
    throw new InferkitError('invalid_request', `forecastFigure: historyTail must be a count >= 0 or 'all', got ${String(tail)}`, { param: 'historyTail' });
  }
  const views: SeriesView[] = names.map((name) => ({ name, history: past.get(name), forecast: future.get(name) as SeriesPoints }));
  const levels = levelsOf(views.map((v) => v.forecast));
  const bands = options.bands ?? defaultBands(levels);
  const missing = bands.flat().filter((l) => !levels.includes(l));
  if (missing.length > 0) {
    throw new InferkitError('invalid_request', `forecastFigure: no quantile column for level(s) ${missing.join(', ')}; forecast has ${levels.join(', ') || 'none'}`, { param: 'bands' });
  }
  const o: ViewOptions = { bands, tail, valueColumn: options.valueColumn ?? 'value' };
  const units = unitMap(options, history, forecast, names);
  const frequencies = frequenciesOf(forecast);
  const xTitles = views.map((v) => xTitle(v.forecast.x, frequencies.get(seriesId(v.name))));
  const layout = baseLayout(options.title);
  const data: PlotlyTrace[] = [];
  if (mode === 'dropdown') {
    const owner: number[] = [];
    views.forEach((v, k) => {
      seriesTraces(v, o, { x: 'x', y: 'y' }, true).forEach((t) => (t.visible = k === 0, data.push(t), owner.push(k)));
    });
    const shapes = views.map((v) => [startMarker(v.forecast.x[0], { x: 'x', y: 'y' })]);
    const ranges = views.map((v) => yRange(v, o));
    const yTitles = names.map((n) => `${escapeHtml(n)}: ${escapeHtml(yTitle(n, o.valueColumn, units))}`);
    layout.shapes = shapes[0];
    layout.xaxis = { ...axisStyle, title: axisTitle(xTitles[0] ?? '') };
    layout.yaxis = { ...axisStyle, title: { ...axisTitle(''), text: yTitles[0] ?? '' }, range: ranges[0] };
    layout.updatemenus = [{
      type: 'dropdown', x: 0, y: 1.12, xanchor: 'left', yanchor: 'top', showactive: true,
      buttons: names.map((n, k) => ({ label: escapeHtml(n), method: 'update', args: [{ visible: owner.map((w) => w === k) }, { shapes: shapes[k], 'xaxis.title.text': escapeHtml(xTitles[k]), 'yaxis.title.text': yTitles[k], 'yaxis.range': ranges[k] }] })),
    }];
    layout.height = 420;
    return { data, layout };
  }
  const columns = options.columns ?? (names.length <= 3 ? 1 : 2);
  const grid = facetGrid(names.length, columns);
  const perRow = Math.max(1, Math.min(columns, names.length));
  const rows = Math.ceil(names.length / perRow);
  const shapes: Record<string, unknown>[] = [];
  const annotations: Record<string, unknown>[] = [];
  views.forEach((v, k) => {
    const g = grid[k];
    data.push(...seriesTraces(v, o, g, k === 0));
    // The x title goes under the lowest facet of each column only.
    const bottomRow = k + perRow >= names.length;
    layout[g.xaxis] = { domain: g.xDomain, anchor: g.y, ...axisStyle, ...(bottomRow ? { title: axisTitle(xTitles[k]) } : {}) };
    layout[g.yaxis] = { domain: g.yDomain, anchor: g.x, ...axisStyle, title: axisTitle(yTitle(v.name, o.valueColumn, units)), range: yRange(v, o) };
    shapes.push(startMarker(v.forecast.x[0], g));
    annotations.push({ text: `<b>${escapeHtml(v.name)}</b>`, xref: 'paper', yref: 'paper', x: (g.xDomain[0] + g.xDomain[1]) / 2, y: g.yDomain[1], xanchor: 'center', yanchor: 'bottom', showarrow: false });
  });
  if (options.series === undefined && all.length > names.length) {
    annotations.push({ text: `first ${names.length} of ${all.length} series (options: series, maxSeries, mode: 'dropdown')`, xref: 'paper', yref: 'paper', x: 1, y: 1, xanchor: 'right', yanchor: 'bottom', yshift: 18, showarrow: false, font: { size: 10, color: '#666' } });
  }
  layout.shapes = shapes;
  layout.annotations = annotations;
  layout.height = Math.max(320, rows * 240 + 80);
  return { data, layout };
}
