import type { BatchProgress } from './batch-result.js';

/** Options of the progress displays. */
export interface ProgressBarOptions {
  /** Text before the bar. @default "forecast" */
  label?: string;
  /** Bar width in characters. @default 30 */
  width?: number;
}

/** One line of progress: `forecast [█████·····] 50% 500/1000 series, 3 failed`. */
export function formatProgress(p: BatchProgress, options: ProgressBarOptions = {}): string {
  const width = options.width ?? 30;
  const ratio = p.total === 0 ? 1 : Math.min(1, p.done / p.total);
  const filled = Math.round(ratio * width);
  const failed = p.failed > 0 ? `, ${p.failed} failed` : '';
  return `${options.label ?? 'forecast'} [${'█'.repeat(filled)}${'·'.repeat(width - filled)}] ${Math.round(ratio * 100)}% ${p.done}/${p.total} series${failed}`;
}

/**
 * A terminal progress bar for `batchForecast`'s `onProgress`: redraws one line through `write`
 * (e.g. `(s) => process.stderr.write(s)`) and ends it with a newline when the batch is done.
 */
export function terminalProgress(write: (text: string) => void, options: ProgressBarOptions = {}): (p: BatchProgress) => void {
  return (p) => write(`\r${formatProgress(p, options)}${p.done >= p.total ? '\n' : ''}`);
}

/** The part of tslab's `Display` that shows HTML (`tslab.display`, `tslab.newDisplay()`): what the notebook progress and `displayFrame` need. */
export interface HtmlDisplay {
  html(s: string): void;
}

/**
 * A live progress display for notebooks: pass `tslab.newDisplay()`; every update overwrites the same
 * output (an HTML `<progress>` bar and the text line). Updates are throttled to `intervalMs`, and the
 * final state is always shown.
 */
export function notebookProgress(
  display: HtmlDisplay,
  options: ProgressBarOptions & { intervalMs?: number } = {},
): (p: BatchProgress) => void {
  let last = -Infinity;
  return (p) => {
    const now = Date.now();
    if (p.done < p.total && now - last < (options.intervalMs ?? 200)) {
      return;
    }
    last = now;
    const failed = p.failed > 0 ? `, <b style="color:#b00">${p.failed} failed</b>` : '';
    display.html(
      `<div style="font-family:monospace"><progress value="${p.done}" max="${Math.max(1, p.total)}" style="width:20em"></progress> ` +
        `${escapeHtml(options.label ?? 'forecast')} ${p.done}/${p.total} series${failed}</div>`,
    );
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
