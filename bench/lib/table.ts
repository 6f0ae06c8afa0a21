/** A markdown table: a header row and data rows of cell strings. */
export interface Table {
  /** Heading printed above the table (`### …`). */
  title: string;
  headers: readonly string[];
  rows: ReadonlyArray<readonly string[]>;
  /** Lines printed under the table (notes, caveats). */
  notes?: readonly string[];
}

function escapeCell(cell: string): string {
  return cell.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/**
 * Renders a GitHub markdown table; columns after the first are right-aligned (numbers). Rows
 * shorter than the header are padded with empty cells; longer rows are an error of the caller
 * and are cut to the header's width.
 */
export function markdownTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const width = headers.length;
  const line = (cells: readonly string[]) => `| ${Array.from({ length: width }, (_, i) => escapeCell(cells[i] ?? '')).join(' | ')} |`;
  const rule = `|${headers.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`;
  return [line(headers), rule, ...rows.map(line)].join('\n');
}

/** A titled table with its notes, as markdown. */
export function renderTable(table: Table): string {
  const parts = [`### ${table.title}`, '', markdownTable(table.headers, table.rows)];
  if (table.notes && table.notes.length > 0) {
    parts.push('', ...table.notes.map((n) => `- ${n}`));
  }
  return parts.join('\n');
}
