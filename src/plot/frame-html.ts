import { escapeHtml } from './figure.js';

/** What {@link frameHtml} reads of a table: an inferkit Frame or a danfojs DataFrame has it. */
export interface TableLike {
  readonly columns: readonly string[];
  /** Cells row by row. */
  readonly values: unknown;
  /** `[rows, columns]`. */
  readonly shape: readonly number[];
}

/** Options of {@link frameHtml} and `displayFrame`. */
export interface FrameHtmlOptions {
  /** Rows shown: the first `maxRows - tail` and the last `tail`, with a "… N more rows" line between. @default 20 */
  maxRows?: number;
  /** Rows shown from the end when the frame is longer than `maxRows`. @default 5 */
  tail?: number;
  /** Significant digits of non-integer numbers. @default 6 */
  digits?: number;
}

function cell(v: unknown, digits: number): string {
  if (typeof v === 'number') {
    return Number.isInteger(v) || !Number.isFinite(v) ? String(v) : String(Number(v.toPrecision(digits)));
  }
  return v === null || v === undefined ? '' : escapeHtml(String(v));
}

/**
 * A DataFrame as an HTML table (header, row numbers, numbers right-aligned, long frames cut in the
 * middle), with the shape underneath — what `displayFrame` shows in a notebook. Pure: no danfojs call.
 */
export function frameHtml(frame: TableLike, options: FrameHtmlOptions = {}): string {
  const maxRows = Math.max(1, options.maxRows ?? 20);
  const digits = options.digits ?? 6;
  const [rows, cols] = frame.shape;
  const values = frame.values as unknown[][];
  const tail = Math.min(Math.max(0, options.tail ?? 5), maxRows - 1);
  const cut = rows > maxRows;
  const shown = cut ? [...Array(maxRows - tail).keys(), ...Array.from({ length: tail }, (_, i) => rows - tail + i)] : [...Array(rows).keys()];
  const th = 'style="text-align:right;padding:2px 8px;border-bottom:1px solid #999"';
  const td = 'style="text-align:right;padding:2px 8px"';
  const rowNumber = 'style="text-align:right;padding:2px 8px;color:#666"';
  const head = `<tr><th ${th}></th>${frame.columns.map((c) => `<th ${th}>${escapeHtml(String(c))}</th>`).join('')}</tr>`;
  const body: string[] = [];
  shown.forEach((r, i) => {
    if (cut && i === maxRows - tail) {
      body.push(`<tr><td ${td}>…</td><td colspan="${cols}" style="padding:2px 8px;color:#666">${rows - maxRows} more rows</td></tr>`);
    }
    const row = values[r] ?? [];
    body.push(`<tr><td ${rowNumber}>${r}</td>${row.map((v) => `<td ${td}>${cell(v, digits)}</td>`).join('')}</tr>`);
  });
  return (
    `<table style="border-collapse:collapse;font-family:monospace;font-size:12px"><thead>${head}</thead><tbody>${body.join('')}</tbody></table>` +
    `<div style="font-family:sans-serif;font-size:11px;color:#666">${rows} rows × ${cols} columns</div>`
  );
}
