/** A Plotly trace as plain data (`type`, `x`, `y`, …). */
export type PlotlyTrace = Record<string, unknown>;
/** A Plotly layout as plain data. */
export type PlotlyLayout = Record<string, unknown>;
/** A Plotly figure as plain data: what `Plotly.newPlot(el, data, layout)` takes. */
export interface PlotlyFigure {
  data: PlotlyTrace[];
  layout: PlotlyLayout;
}

/** One subplot of a facet grid: axis ids for traces (`x2`) and layout keys (`xaxis2`). */
export interface Facet {
  x: string;
  y: string;
  xaxis: string;
  yaxis: string;
  xDomain: [number, number];
  yDomain: [number, number];
}

const round = (v: number): number => Math.round(v * 1e4) / 1e4;

/**
 * Lays `n` subplots out row by row in `columns` columns (top-left first), with gaps between them; `rowGap` is
 * the share of the height left between rows (more when facets inside a column carry x titles).
 */
export function facetGrid(n: number, columns: number, rowGap = 0.3): Facet[] {
  const cols = Math.max(1, Math.min(columns, n));
  const rows = Math.max(1, Math.ceil(n / cols));
  const gx = cols > 1 ? 0.08 : 0, gy = rows > 1 ? rowGap / rows : 0;
  const w = (1 - gx * (cols - 1)) / cols, h = (1 - gy * (rows - 1)) / rows;
  return Array.from({ length: n }, (_, k) => {
    const r = Math.floor(k / cols), c = k % cols;
    const suffix = k === 0 ? '' : String(k + 1);
    const top = 1 - r * (h + gy);
    return {
      x: `x${suffix}`,
      y: `y${suffix}`,
      xaxis: `xaxis${suffix}`,
      yaxis: `yaxis${suffix}`,
      xDomain: [round(c * (w + gx)), round(c * (w + gx) + w)],
      yDomain: [round(top - h), round(top)],
    };
  });
}

/** The layout every inferkit figure starts from: white, a legend below, room for an optional title. */
export function baseLayout(title?: string): PlotlyLayout {
  const layout: PlotlyLayout = {
    template: null,
    paper_bgcolor: '#fff',
    plot_bgcolor: '#fff',
    font: { family: 'Helvetica, Arial, sans-serif', size: 12 },
    margin: { l: 60, r: 20, t: title ? 70 : 40, b: 80 },
    // Pinned to the bottom of the image, below any x-axis title.
    legend: { orientation: 'h', x: 0, xref: 'container', y: 0, yref: 'container', yanchor: 'bottom' },
    hovermode: 'x',
  };
  if (title) {
    layout.title = { text: escapeHtml(title) };
  }
  return layout;
}

/** Escapes text for HTML (and for Plotly's HTML-like annotation text). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** Plotly's default colour cycle. */
export const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

/** `#1f77b4` → `rgba(31,119,180,alpha)`. */
export function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${alpha})`;
}
