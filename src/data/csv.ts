import { readFile, writeFile } from 'node:fs/promises';
import type { DataFrame } from 'danfojs-node';
import { InferkitError } from '../errors.js';
import { rowsToFrame, toColumns, type FrameLike, type Row } from './columns.js';
import { formatTimestamp } from './timestamps.js';

/** Splits CSV text (RFC 4180: quotes, doubled quotes, CRLF) into records of fields. */
function records(text: string): string[][] {
  const out: string[][] = [];
  let field = '', row: string[] = [], quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        (field += '"'), i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
    } else if (c === ',') {
      row.push(field), (field = '');
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') {
        i++;
      }
      row.push(field), out.push(row), (row = []), (field = '');
    } else {
      field += c;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field), out.push(row);
  }
  return out.filter((r) => !(r.length === 1 && r[0] === ''));
}

/**
 * Parses CSV text with a header row into rows. A column whose non-empty cells are all numbers becomes
 * numbers; empty cells are null; everything else (timestamps included) stays a string, offsets intact.
 */
export function parseCsv(text: string): Row[] {
  const [header, ...body] = records(text.replace(/^\uFEFF/, ''));
  if (!header) {
    return [];
  }
  const numeric = header.map((_, j) => body.every((r) => (r[j] ?? '') === '' || Number.isFinite(Number(r[j])) && r[j].trim() !== ''));
  return body.map((r, i) => {
    if (r.length > header.length) {
      throw new InferkitError('invalid_request', `CSV line ${i + 2}: ${r.length} fields, header has ${header.length}`);
    }
    const row: Row = {};
    header.forEach((h, j) => {
      const cell = r[j] ?? '';
      row[h] = cell === '' ? null : numeric[j] ? Number(cell) : cell;
    });
    return row;
  });
}

/** Reads a CSV file into a DataFrame (see `parseCsv` for typing). */
export async function readCsv(path: string): Promise<DataFrame> {
  const rows = parseCsv(await readFile(path, 'utf8'));
  const names = rows.length > 0 ? Object.keys(rows[0]) : [];
  return rowsToFrame(rows, names);
}

function cellText(v: unknown): string {
  if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) {
    return '';
  }
  const s = v instanceof Date ? formatTimestamp(v.getTime()) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Writes a DataFrame or rows as CSV text (header row; null → empty cell; Dates as UTC ISO). */
export function toCsv(frame: FrameLike): string {
  const cols = toColumns(frame);
  const data = cols.names.map((n) => cols.get(n) ?? []);
  const lines = [cols.names.map(cellText).join(',')];
  for (let i = 0; i < cols.length; i++) {
    lines.push(data.map((c) => cellText(c[i])).join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** Writes a DataFrame or rows to a CSV file. */
export async function writeCsv(frame: FrameLike, path: string): Promise<void> {
  await writeFile(path, toCsv(frame), 'utf8');
}
