import { toRows, type FrameLike, type Row } from '../data/columns.js';
import { InferkitError } from '../errors.js';
import { coveringRange } from './axes.js';
import { PALETTE, baseLayout, escapeHtml, facetGrid, type PlotlyFigure, type PlotlyTrace } from './figure.js';

/** Options of {@link crossValidationFigure}. */
export interface CrossValidationFigureOptions {
  /** Model columns to draw. @default every column other than unique_id, ds, cutoff, y, error and quantile/level columns */
  models?: readonly string[];
  /** Series to show, in this order. @default the first `maxSeries` */
  series?: readonly string[];
  /** Facets drawn when `series` is not given. @default 6 */
  maxSeries?: number;
  /** Facet columns. @default 1 up to 3 series, else 2 */
  columns?: number;
  title?: string;
}

const RESERVED = new Set(['unique_id', 'ds', 'cutoff', 'y', 'error']);
const QUANTILE_COLUMN = /-(q\d|lo-|hi-)/;

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * The frame of `crossValidation` as a figure: one facet per series with the actual values, each model's
 * forecast from every cutoff as its own line (one colour per model, one legend entry), and each cutoff
 * marked by a dotted line. Pure: returns Plotly `{data, layout}`.
 */
export function crossValidationFigure(frame: FrameLike, options: CrossValidationFigureOptions = {}): PlotlyFigure {
  const rows = toRows(frame).filter((r) => r.ds !== null && r.ds !== undefined);
  const columns = rows.length > 0 ? Object.keys(rows[0]) : [];
  const models = [...(options.models ?? columns.filter((c) => !RESERVED.has(c) && !QUANTILE_COLUMN.test(c)))];
  const absent = models.filter((m) => !columns.includes(m));
  if (absent.length > 0 || models.length === 0) {
    throw new InferkitError('invalid_request', `crossValidationFigure: ${models.length === 0 ? 'no model columns' : `no column ${absent.join(', ')}`}; columns are ${columns.join(', ')}`, { param: 'models' });
  }
  const bySeries = new Map<string, Row[]>();
  for (const r of rows) {
    const id = String(r.unique_id);
    let list = bySeries.get(id);
    if (!list) {
      bySeries.set(id, (list = []));
    }
    list.push(r);
  }
  const all = [...bySeries.keys()];
  const names = [...(options.series ?? all.slice(0, options.maxSeries ?? 6))];
  const unknown = names.filter((n) => !bySeries.has(n));
  if (unknown.length > 0) {
    throw new InferkitError('invalid_request', `crossValidationFigure: no rows for ${unknown.join(', ')}`, { param: 'series' });
  }
  const cols = options.columns ?? (names.length <= 3 ? 1 : 2);
  const grid = facetGrid(names.length, cols);
  const layout = baseLayout(options.title ?? 'Cross-validation');
  const data: PlotlyTrace[] = [];
  const shapes: Record<string, unknown>[] = [];
  const annotations: Record<string, unknown>[] = [];
  names.forEach((name, k) => {
    const g = grid[k];
    const ref = { xaxis: g.x, yaxis: g.y };
    const series = bySeries.get(name) ?? [];
    const actual = new Map<string, number | null>();
    for (const r of series) {
      actual.set(String(r.ds), num(r.y));
    }
    const ax = [...actual.keys()].sort((a, b) => Date.parse(a) - Date.parse(b) || a.localeCompare(b));
    data.push({ type: 'scatter', mode: 'lines+markers', name: 'actual', legendgroup: 'actual', showlegend: k === 0, x: ax, y: ax.map((x) => actual.get(x) ?? null), line: { color: '#404040', width: 1.5 }, marker: { size: 4 }, ...ref, meta: name });
    const cutoffs = [...new Set(series.map((r) => String(r.cutoff)))];
    const ys: (number | null)[][] = [ax.map((x) => actual.get(x) ?? null)];
    models.forEach((model, m) => {
      cutoffs.forEach((cutoff, c) => {
        const part = series.filter((r) => String(r.cutoff) === cutoff);
        const y = part.map((r) => num(r[model]));
        ys.push(y);
        data.push({ type: 'scatter', mode: 'lines', name: escapeHtml(model), legendgroup: model, showlegend: k === 0 && c === 0, x: part.map((r) => r.ds), y, line: { color: PALETTE[m % PALETTE.length], width: 2 }, ...ref, meta: `${name} · cutoff ${cutoff}` });
      });
    });
    for (const cutoff of cutoffs) {
      shapes.push({ type: 'line', xref: g.x, yref: `${g.y} domain`, x0: cutoff, x1: cutoff, y0: 0, y1: 1, line: { color: '#888', width: 1, dash: 'dot' } });
    }
    layout[g.xaxis] = { domain: g.xDomain, anchor: g.y, showgrid: true, gridcolor: '#eee' };
    layout[g.yaxis] = { domain: g.yDomain, anchor: g.x, showgrid: true, gridcolor: '#eee', range: coveringRange(ys) };
    annotations.push({ text: `<b>${escapeHtml(name)}</b>`, xref: 'paper', yref: 'paper', x: (g.xDomain[0] + g.xDomain[1]) / 2, y: g.yDomain[1], xanchor: 'center', yanchor: 'bottom', showarrow: false });
  });
  layout.shapes = shapes;
  layout.annotations = annotations;
  layout.height = Math.max(320, Math.ceil(names.length / cols) * 240 + 80);
  return { data, layout };
}
