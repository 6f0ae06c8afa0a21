/** Cell text of a preview: numbers to 6 significant digits, null/undefined empty. */
function cellText(v: unknown): string {
  if (typeof v === 'number') {
    return Number.isInteger(v) || !Number.isFinite(v) ? String(v) : String(Number(v.toPrecision(6)));
  }
  if (v instanceof Date) {
    return v.toISOString();
  }
  return v === null || v === undefined ? '' : String(v);
}

/**
 * A frame as an aligned text table: header, row numbers, the shown `rows` (when `total` is larger, the
 * last `tail` of them are the frame's last rows, with a `…` line before them), and the shape underneath.
 */
export function framePreview(columns: readonly string[], rows: readonly unknown[][], total: number, tail: number): string {
  const cut = total > rows.length;
  const index = rows.map((_, i) => (cut && i >= rows.length - tail ? total - (rows.length - i) : i));
  const table = [['', ...columns], ...rows.map((r, i) => [String(index[i]), ...r.map(cellText)])];
  const widths = table[0].map((_, j) => Math.max(...table.map((r) => (r[j] ?? '').length)));
  const line = (r: string[]): string => r.map((c, j) => c.padStart(widths[j])).join('  ').trimEnd();
  const lines = table.map(line);
  if (cut) {
    lines.splice(1 + rows.length - tail, 0, `${'…'.padStart(widths[0])}  (${total - rows.length} more rows)`);
  }
  return `${lines.join('\n')}\n[${total} rows × ${columns.length} columns]`;
}
