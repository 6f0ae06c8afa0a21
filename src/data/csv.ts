import { createReadStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { toColumns, type FrameLike, type Row } from './columns.js';
import { CSV_PARSE_OPTIONS, CsvColumns } from './csv-reader.js';
import type { Frame } from './frame/frame.js';
import { formatTimestamp } from './timestamps.js';

/** Options of {@link readCsv} and {@link parseCsvFrame}. */
export interface CsvReadOptions {
  /** The cell separator (pandas' `sep`), one character or more. @default "," */
  delimiter?: string;
}

/**
 * Parses CSV text with a header row into an inferkit Frame, strictly (csv-parse, RFC 4180): an unclosed or
 * stray quote, a duplicate header or a row with more or fewer cells than the header throws an InferkitError
 * `invalid_request` naming the line and column. A column whose non-empty cells are all decimal numbers becomes
 * numbers (never from hex or binary literals such as `0x1A`, which stay text); empty cells are null; everything
 * else (timestamps included) stays a string, offsets intact. A header-only text keeps its columns.
 */
export function parseCsvFrame(text: string, options: CsvReadOptions = {}): Frame {
  const columns = new CsvColumns('CSV');
  try {
    parseSync(text, { ...CSV_PARSE_OPTIONS, delimiter: options.delimiter ?? ',', on_record: (record: string[], context) => (columns.add(record, context.lines), null) });
  } catch (e) {
    throw columns.error(e);
  }
  return columns.frame();
}

/** Parses CSV text with a header row into rows (see {@link parseCsvFrame} for the rules and errors). */
export function parseCsv(text: string): Row[] {
  return parseCsvFrame(text).toRows();
}

/**
 * Reads a CSV file into an inferkit Frame, streamed (the file is never held whole as text); the same strict
 * rules and typing as {@link parseCsvFrame}, errors naming the file, line and column.
 */
export async function readCsv(path: string, options: CsvReadOptions = {}): Promise<Frame> {
  const columns = new CsvColumns(path);
  const delimiter = options.delimiter ?? ',';
  try {
    await streamRecords(path, delimiter, (record) => columns.add(record, 0));
  } catch (e) {
    let last: number | undefined;
    if ((e as { code?: unknown }).code === 'CSV_QUOTE_NOT_CLOSED') {
      // Where the unclosed cell starts: after the last whole record, which a second, slower pass finds.
      await streamRecords(path, delimiter, (_, line) => (last = line), true).catch(() => undefined);
    }
    throw columns.error(e, last);
  }
  return columns.frame();
}

/**
 * Parses a file record by record. Without `lines`, records are read from the parser in a `readable` loop (~3×
 * less CPU than `on_record`, whose per-record context costs) and `line` is 0; with it, from `on_record`.
 */
function streamRecords(path: string, delimiter: string, take: (record: string[], line: number) => void, lines = false): Promise<void> {
  const parser = parse({ ...CSV_PARSE_OPTIONS, delimiter, ...(lines ? { on_record: (r: string[], context: { lines: number }) => (take(r, context.lines), null) } : {}) });
  const input = createReadStream(path);
  return new Promise<void>((resolve, reject) => {
    const fail = (e: unknown): void => {
      input.destroy();
      reject(e);
    };
    parser.on('readable', () => {
      let record: string[] | null;
      try {
        while ((record = parser.read() as string[] | null) !== null) {
          take(record, 0);
        }
      } catch (e) {
        parser.destroy();
        fail(e);
      }
    });
    parser.once('end', resolve);
    parser.once('error', fail);
    input.once('error', fail);
    input.pipe(parser);
  });
}

function cellText(v: unknown): string {
  if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) {
    return '';
  }
  const s = v instanceof Date ? formatTimestamp(v.getTime()) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Writes any table (Frame, rows, Arrow Table, danfojs DataFrame) as CSV text (header row; null → empty cell; Dates as UTC ISO). */
export function toCsv(frame: FrameLike): string {
  const cols = toColumns(frame);
  const data = cols.names.map((n) => cols.get(n) ?? []);
  const lines = [cols.names.map(cellText).join(',')];
  for (let i = 0; i < cols.length; i++) {
    lines.push(data.map((c) => cellText(c[i])).join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** Writes any table to a CSV file (see {@link toCsv}). */
export async function writeCsv(frame: FrameLike, path: string): Promise<void> {
  await writeFile(path, toCsv(frame), 'utf8');
}
