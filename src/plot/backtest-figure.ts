import { InferkitError } from '../errors.js';
import { PALETTE, baseLayout, escapeHtml, facetGrid, type PlotlyFigure, type PlotlyTrace } from './figure.js';
import { pointsBySeries, type ForecastSource, type HistorySource, type SeriesPoints } from './series-points.js';

/** Options of `backtestFigure`. */
export interface BacktestFigureOptions {
  /** Series to show, in this order. @default every series forecast by the first model */
  series?: readonly string[];
  /** Show only the last N actual points of each series. @default all */
  historyTail?: number;
  /** Facet columns. @default 1 up to 3 series, else 2 */
  columns?: number;
  title?: string;
}

/**
 * Actual values against the mean forecasts of one or more models (`{ "seasonal-naive": response, … }`),
 * one facet per series, the forecast origin marked. `actual` should include the held-out values.
 */
export function backtestFigure(actual: HistorySource, forecasts: Readonly<Record<string, ForecastSource>>, options: BacktestFigureOptions = {}): PlotlyFigure {
  const truth = pointsBySeries(actual);
  const models = Object.entries(forecasts).map(([model, source]) => ({ model, points: pointsBySeries(source) }));
  if (models.length === 0) {
    throw new InferkitError('invalid_request', 'backtestFigure: no forecasts given', { param: 'forecasts' });
  }
  const names = [...(options.series ?? models[0].points.keys())];
  const missing = names.filter((n) => !truth.has(n));
  if (missing.length > 0) {
    throw new InferkitError('invalid_request', `backtestFigure: no actual values for ${missing.join(', ')}`, { param: 'actual' });
  }
  const columns = options.columns ?? (names.length <= 3 ? 1 : 2);
  const grid = facetGrid(names.length, columns);
  const data: PlotlyTrace[] = [];
  const shapes: Record<string, unknown>[] = [];
  const annotations: Record<string, unknown>[] = [];
  const layout = baseLayout(options.title);
  names.forEach((n, k) => {
    const g = grid[k];
    const ref = { xaxis: g.x, yaxis: g.y };
    const a = truth.get(n) as SeriesPoints;
    const from = options.historyTail === undefined ? 0 : Math.max(0, a.x.length - options.historyTail);
    data.push({ type: 'scatter', mode: 'lines', name: 'actual', legendgroup: 'actual', showlegend: k === 0, x: a.x.slice(from), y: (a.columns.get('value') ?? []).slice(from), line: { color: '#404040', width: 1.5 }, ...ref, meta: n });
    let origin: string | number | undefined;
    models.forEach(({ model, points }, m) => {
      const f = points.get(n);
      if (!f) {
        return;
      }
      origin ??= f.x[0];
      data.push({ type: 'scatter', mode: 'lines', name: escapeHtml(model), legendgroup: model, showlegend: k === 0, x: f.x, y: f.columns.get('mean'), line: { color: PALETTE[m % PALETTE.length], width: 2, dash: m === 0 ? 'solid' : 'dash' }, ...ref, meta: n });
    });
    layout[g.xaxis] = { domain: g.xDomain, anchor: g.y, showgrid: true, gridcolor: '#eee' };
    layout[g.yaxis] = { domain: g.yDomain, anchor: g.x, showgrid: true, gridcolor: '#eee' };
    shapes.push({ type: 'line', xref: g.x, yref: `${g.y} domain`, x0: origin, x1: origin, y0: 0, y1: 1, line: { color: '#888', width: 1, dash: 'dot' } });
    annotations.push({ text: `<b>${escapeHtml(n)}</b>`, xref: 'paper', yref: 'paper', x: (g.xDomain[0] + g.xDomain[1]) / 2, y: g.yDomain[1], xanchor: 'center', yanchor: 'bottom', showarrow: false });
  });
  layout.shapes = shapes;
  layout.annotations = annotations;
  layout.height = Math.max(320, Math.ceil(names.length / columns) * 240 + 80);
  return { data, layout };
}

/** Axis titles of the usual metrics; others are shown upper-cased. */
const METRIC_TITLES: Readonly<Record<string, string>> = {
  mase: 'MASE (scaled by in-sample seasonal naive)',
  wql: 'WQL (weighted quantile loss)',
  coverage: 'interval coverage',
};

/** Options of {@link scoreFigure}. */
export interface ScoreFigureOptions {
  /** Figure title. @default "Backtest accuracy (lower is better)" */
  title?: string;
}

/**
 * Mean scores per model (e.g. from `evaluate()` results), one panel per metric side by side — MASE and WQL
 * live on different scales, so each gets its own y axis starting at zero. Bars keep one colour per model
 * across panels (one legend entry each) and carry their value as text.
 */
export function scoreFigure(
  scores: ReadonlyArray<{ model: string } & Record<string, unknown>>,
  metrics: readonly string[] = ['mase', 'wql'],
  options: ScoreFigureOptions = {},
): PlotlyFigure {
  if (metrics.length === 0) {
    throw new InferkitError('invalid_request', 'scoreFigure: no metrics given', { param: 'metrics' });
  }
  // Panels side by side with room between them for each panel's own y-axis title.
  const gap = 0.16, width = (1 - gap * (metrics.length - 1)) / metrics.length;
  const grid = facetGrid(metrics.length, metrics.length).map((g, k) => ({ ...g, xDomain: [k * (width + gap), k * (width + gap) + width].map((v) => Math.round(v * 1e4) / 1e4) }));
  const layout = baseLayout(options.title ?? 'Backtest accuracy (lower is better)');
  layout.height = 380;
  layout.hovermode = 'closest';
  const data: PlotlyTrace[] = [];
  const annotations: Record<string, unknown>[] = [];
  const models = scores.map((s) => escapeHtml(s.model));
  metrics.forEach((metric, k) => {
    const g = grid[k];
    scores.forEach((s, m) => {
      const v = typeof s[metric] === 'number' && Number.isFinite(s[metric]) ? (s[metric] as number) : null;
      data.push({
        type: 'bar', name: models[m], legendgroup: models[m], showlegend: k === 0, x: [models[m]], y: [v],
        text: [v === null ? '' : Number(v.toPrecision(3)).toString()], textposition: 'outside', cliponaxis: false,
        marker: { color: PALETTE[m % PALETTE.length] }, xaxis: g.x, yaxis: g.y, meta: metric,
      });
    });
    const title = METRIC_TITLES[metric.toLowerCase()] ?? metric.toUpperCase();
    layout[g.xaxis] = { domain: g.xDomain, anchor: g.y, showticklabels: false };
    layout[g.yaxis] = { domain: g.yDomain, anchor: g.x, gridcolor: '#eee', rangemode: 'tozero', title: { text: escapeHtml(title), font: { size: 11 } } };
    annotations.push({ text: `<b>${escapeHtml(metric.toUpperCase())}</b>`, xref: 'paper', yref: 'paper', x: (g.xDomain[0] + g.xDomain[1]) / 2, y: 1, xanchor: 'center', yanchor: 'bottom', showarrow: false });
  });
  layout.annotations = annotations;
  return { data, layout };
}
