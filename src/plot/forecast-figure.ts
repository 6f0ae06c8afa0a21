import { InferkitError } from '../errors.js';
import { PALETTE, baseLayout, escapeHtml, facetGrid, withAlpha, type PlotlyFigure, type PlotlyTrace } from './figure.js';
import { pointsBySeries, type HistorySource, type SeriesPoints } from './series-points.js';
import { coveringRange, frequenciesOf, seriesId, unitsOf, xTitle, yTitle } from './axes.js';
import { forecastModels, type ForecastFigureSource, type ForecastModels, type ModelColumns } from './forecast-models.js';

/** Options of `forecastFigure`. */
export interface ForecastFigureOptions {
  /**
   * Quantile pairs to shade, e.g. `[[0.1, 0.9], [0.25, 0.75]]` (a `-lo-80`/`-hi-80` pair is `[0.1, 0.9]`).
   * @default every symmetric pair of each model
   */
  bands?: ReadonlyArray<readonly [number, number]>;
  /** Model columns of a several-model forecast to draw, in this order (`['AutoETS', 'Theta']`). @default every model */
  models?: readonly string[];
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

const HISTORY_COLOR = '#404040';

/** Quantile levels of every model, ascending. */
function levelsOf(models: readonly ModelColumns[]): number[] {
  return [...new Set(models.flatMap((m) => [...m.levels.keys()]))].sort((a, b) => a - b);
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
  models: readonly ModelColumns[];
  /** Pairs to shade; undefined: each model's own symmetric pairs. */
  bands: ReadonlyArray<readonly [number, number]> | undefined;
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

/** The band pairs drawn for a model: the requested ones, else its own symmetric pairs. */
function bandsOf(model: ModelColumns, o: ViewOptions): ReadonlyArray<readonly [number, number]> {
  return o.bands ?? defaultBands([...model.levels.keys()].sort((a, b) => a - b));
}

/** A y range over the shown history, every model's mean and every band drawn. */
function yRange(v: SeriesView, o: ViewOptions): [number, number] | undefined {
  const cols = [historyShown(v, o)?.y, ...o.models.flatMap((m) => [m.mean, ...bandsOf(m, o).flat().map((l) => m.levels.get(l))]).map((c) => (c === undefined ? undefined : v.forecast.columns.get(c)))];
  return coveringRange(cols);
}

/** Percent of an interval (`0.1–0.9` → `80%`). */
function intervalLabel(lo: number, hi: number): string {
  return `${Number(((hi - lo) * 100).toFixed(6))}%`;
}

function seriesTraces(v: SeriesView, o: ViewOptions, axes: { x: string; y: string }, first: boolean): PlotlyTrace[] {
  const { name, forecast: f } = v;
  const traces: PlotlyTrace[] = [];
  const ref = { xaxis: axes.x, yaxis: axes.y };
  const h = historyShown(v, o);
  if (h) {
    traces.push({ type: 'scatter', mode: 'lines', name: 'history', legendgroup: 'history', showlegend: first, x: h.x, y: h.y, line: { color: HISTORY_COLOR, width: 1.5 }, ...ref, meta: name });
  }
  // Each model's lines start at the last observation, so history and forecast join.
  const lastAt = h === undefined ? -1 : h.y.reduce<number>((at, y, i) => (y !== null ? i : at), -1); // no findLastIndex: tslab's lib is ES2022
  const joined = (y: (number | null)[] | undefined): { x: (string | number)[]; y: (number | null)[] } =>
    h !== undefined && lastAt >= 0 && lastAt === h.y.length - 1 ? { x: [h.x[lastAt], ...f.x], y: [h.y[lastAt], ...(y ?? [])] } : { x: f.x, y: y ?? [] };
  const several = o.models.length > 1 || o.models[0]?.name !== 'mean';
  o.models.forEach((m, k) => {
    const color = PALETTE[k % PALETTE.length];
    const pairs = bandsOf(m, o);
    pairs.forEach(([lo, hi], b) => {
      const label = several ? `${m.name} ${intervalLabel(lo, hi)}` : `band ${lo}–${hi}`;
      const alpha = (several ? 0.18 : 0.15) + (0.25 * b) / Math.max(1, pairs.length);
      const group = `${m.name} ${lo}–${hi}`;
      traces.push({ type: 'scatter', mode: 'lines', name: several ? `${m.name} q${lo}` : `q${lo}`, legendgroup: group, showlegend: false, hoverinfo: 'skip', ...joined(f.columns.get(m.levels.get(lo) ?? '')), line: { width: 0, color }, ...ref, meta: name });
      traces.push({ type: 'scatter', mode: 'lines', name: escapeHtml(label), legendgroup: group, showlegend: first, fill: 'tonexty', fillcolor: withAlpha(color, Number(alpha.toFixed(3))), ...joined(f.columns.get(m.levels.get(hi) ?? '')), line: { width: 0, color }, ...ref, meta: name });
    });
    traces.push({ type: 'scatter', mode: 'lines', name: escapeHtml(m.name), legendgroup: m.name, showlegend: first, ...joined(f.columns.get(m.mean)), line: { color, width: 2 }, ...ref, meta: name });
  });
  return traces;
}

function startMarker(x: string | number | undefined, axes: { x: string; y: string }): Record<string, unknown> {
  return { type: 'line', xref: axes.x, yref: `${axes.y} domain`, x0: x, x1: x, y0: 0, y1: 1, line: { color: '#888', width: 1, dash: 'dot' } };
}

function unitMap(options: ForecastFigureOptions, history: HistorySource | null, forecast: ForecastModels['source'], names: readonly string[]): Map<string, string> {
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
 * A forecast figure like statsforecast's `plot`: recent history and, for every model, its forecast and shaded
 * quantile bands (one colour per model), each model's line starting at the last observation; the forecast start
 * is marked by a dotted line. Takes a response, forecasts, `forecastToFrame` output, a `batchForecast` result,
 * or a several-model frame (`both.frame`: columns `AutoETS`, `AutoETS-lo-80`, `AutoETS-hi-80`, …; `models` picks
 * some). Each y range covers everything drawn (bands are never clipped); axes are titled (`time (day)` under
 * each facet whose frequency differs from the others in its column; the value column or variable with its unit).
 * Several series become facets (the first `maxSeries` by default) or a dropdown selector. Input it cannot read
 * throws an InferkitError `invalid_request` naming what it expected. Pure: returns Plotly `{data, layout}`;
 * render with `renderHtml`/`renderPng`/`displayFigure`.
 */
export function forecastFigure(history: HistorySource | null, forecast: ForecastFigureSource, options: ForecastFigureOptions = {}): PlotlyFigure {
  const past = history === null ? new Map<string, SeriesPoints>() : pointsBySeries(history);
  const { source, points: future, models } = forecastModels(forecast, options.models);
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
  const levels = levelsOf(models);
  const missing = (options.bands ?? []).flat().filter((l) => !levels.includes(l));
  if (missing.length > 0) {
    throw new InferkitError('invalid_request', `forecastFigure: no quantile column for level(s) ${missing.join(', ')}; forecast has ${levels.join(', ') || 'none'}`, { param: 'bands' });
  }
  const o: ViewOptions = { models, bands: options.bands, tail, valueColumn: options.valueColumn ?? 'value' };
  const units = unitMap(options, history, source, names);
  const frequencies = frequenciesOf(source);
  const xTitles = views.map((v) => xTitle([...(v.history?.x.slice(-50) ?? []), ...v.forecast.x], frequencies.get(seriesId(v.name))));
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
  const perRow = Math.max(1, Math.min(columns, names.length));
  const rows = Math.ceil(names.length / perRow);
  // A column of facets on one frequency has its x title under the lowest facet only; mixed ones under each.
  const titled = xTitles.map((t, k) => k + perRow >= names.length || xTitles.some((u, j) => j % perRow === k % perRow && u !== t));
  const grid = facetGrid(names.length, columns, titled.some((t, k) => t && k + perRow < names.length) ? 0.45 : 0.3);
  const shapes: Record<string, unknown>[] = [];
  const annotations: Record<string, unknown>[] = [];
  views.forEach((v, k) => {
    const g = grid[k];
    data.push(...seriesTraces(v, o, g, k === 0));
    layout[g.xaxis] = { domain: g.xDomain, anchor: g.y, ...axisStyle, ...(titled[k] ? { title: axisTitle(xTitles[k]) } : {}) };
    layout[g.yaxis] = { domain: g.yDomain, anchor: g.x, ...axisStyle, title: axisTitle(yTitle(v.name, o.valueColumn, units)), range: yRange(v, o) };
    shapes.push(startMarker(v.forecast.x[0], g));
    annotations.push({ text: `<b>${escapeHtml(v.name)}</b>`, xref: 'paper', yref: 'paper', x: (g.xDomain[0] + g.xDomain[1]) / 2, y: g.yDomain[1], xanchor: 'center', yanchor: 'bottom', showarrow: false });
  });
  if (options.series === undefined && all.length > names.length) {
    annotations.push({ text: `first ${names.length} of ${all.length} series (options: series, maxSeries, mode: 'dropdown')`, xref: 'paper', yref: 'paper', x: 1, y: 1, xanchor: 'right', yanchor: 'bottom', yshift: 18, showarrow: false, font: { size: 10, color: '#666' } });
  }
  layout.shapes = shapes;
  layout.annotations = annotations;
  layout.height = Math.max(320, rows * (titled.filter(Boolean).length > perRow ? 260 : 240) + 80);
  return { data, layout };
}
