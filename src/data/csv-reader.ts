import type { Options as CsvParseOptions } from 'csv-parse';
import { InferkitError } from '../errors.js';
import { Frame } from './frame/frame.js';

/**
 * A decimal number as written in a CSV cell: digits, optional fraction and exponent. No hex (`0x1A`),
 * binary (`0b1`), octal (`0o7`), `Infinity` or digit separators: those stay text, unlike `Number(cell)`.
 */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** Cells that mean "missing" in an otherwise numeric column (pandas' usual spellings); an empty cell always does. */
const MISSING = /^(?:nan|na|n\/a|null)$/i;

/** Distinct cells kept per column to share repeated strings; a column with more keeps its own. */
const POOL_LIMIT = 50_000;

/** What csv-parse's errors carry (CsvError). */
interface CsvParseError {
  code?: string;
  lines?: number;
  column?: number | string;
  message: string;
}

/** csv-parse options of every read: strict quotes and record lengths, BOM dropped, blank lines skipped, CRLF, LF and CR lines (mixed too). */
export const CSV_PARSE_OPTIONS: CsvParseOptions = { bom: true, skip_empty_lines: true, relax_column_count: false, relax_quotes: false, record_delimiter: ['\r\n', '\n', '\r'] };

/**
 * Gathers parsed CSV records into columns — the first record is the header — and turns them into a Frame
 * with typed columns. Feed it from csv-parse's `on_record` (which passes the line each record ends on);
 * translate csv-parse's errors with {@link CsvColumns.error}. `source` names the file in messages.
 */
export class CsvColumns {
  #header: string[] | undefined;
  #cells: string[][] = [];
  #lastLine = 0;
  /** Per column, the distinct cells seen so far (ids, dates repeat), dropped past {@link POOL_LIMIT}. */
  #pools: Array<Map<string, string> | undefined> = [];

  constructor(readonly source: string) {}

  /** Takes one record ending on `line` (0 when unknown). Throws on a duplicate header name. */
  add(record: string[], line: number): void {
    if (this.#header === undefined) {
      this.#lastLine = line;
      this.#header = this.#names(record, line || 1);
      this.#cells = this.#header.map(() => []);
      this.#pools = this.#header.map(() => new Map());
      return;
    }
    if (line !== 0) {
      this.#lastLine = line;
    }
    const cells = this.#cells;
    const pools = this.#pools;
    for (let j = 0; j < record.length; j++) {
      const pool = pools[j];
      const v = record[j];
      if (pool === undefined) {
        cells[j].push(v);
        continue;
      }
      const known = pool.get(v);
      if (known !== undefined) {
        cells[j].push(known);
      } else {
        cells[j].push(v);
        pool.set(v, v);
        if (pool.size > POOL_LIMIT) {
          pools[j] = undefined;
        }
      }
    }
  }

  #names(record: string[], line: number): string[] {
    const first = new Map<string, number>();
    return record.map((raw, j) => {
      // pandas' name for a blank header cell (the index column of `df.to_csv()`).
      const name = raw.trim() === '' ? `Unnamed: ${j}` : raw;
      const earlier = first.get(name);
      if (earlier !== undefined) {
        throw this.#fail(line, j, `duplicate header "${name}" (also column ${earlier + 1}); rename one of them`);
      }
      first.set(name, j);
      return name;
    });
  }

  #fail(line: number, column0: number | undefined, what: string, cause?: unknown): InferkitError {
    const where = column0 === undefined ? `line ${line}` : `line ${line}, column ${column0 + 1}`;
    return new InferkitError('invalid_request', `${this.source}: ${where}: ${what}`, { cause });
  }

  /**
   * csv-parse's error as an InferkitError `invalid_request` naming the line and column (others pass through).
   * `lastLine`: the line the last whole record ended on, where the records were read without line numbers.
   */
  error(e: unknown, lastLine = this.#lastLine): unknown {
    this.#lastLine = lastLine;
    if (e instanceof InferkitError || typeof e !== 'object' || e === null) {
      return e;
    }
    const err = e as CsvParseError;
    const line = err.lines ?? this.#lastLine + 1;
    const column = typeof err.column === 'number' ? err.column : undefined;
    const width = this.#header?.length ?? 0;
    switch (err.code) {
      case 'CSV_QUOTE_NOT_CLOSED':
        return this.#fail(this.#lastLine + 1, column, `a quoted cell is never closed (the file ends inside it, at line ${line}); close the quote or double a quote inside the cell ("")`, e);
      case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH': {
        const got = column ?? 0;
        const what = got < width ? `column "${this.#header?.[got]}" is missing` : `${got - width} cell(s) more than the header`;
        return this.#fail(line, Math.min(got, width), `${got} cell${got === 1 ? '' : 's'}, the header has ${width}: ${what}`, e);
      }
      case 'INVALID_OPENING_QUOTE':
      case 'CSV_INVALID_CLOSING_QUOTE':
        return this.#fail(line, column, `stray quote: a cell with a quote must be quoted whole, its quotes doubled ("a ""b"" c") — ${err.message}`, e);
      default:
        return typeof err.code === 'string' && err.code.startsWith('CSV') ? this.#fail(line, column, err.message, e) : e;
    }
  }

  /**
   * The table: a column whose non-empty cells are all decimal numbers becomes numbers (empty and NaN/NA/null
   * cells → null); in other columns an empty cell is null and the rest stays text as written (timestamps with
   * their offsets). A header-only file gives an empty frame with its columns. Call it once: it types the
   * gathered cells in place.
   */
  frame(): Frame {
    const names = this.#header ?? [];
    const record: Record<string, unknown[]> = {};
    names.forEach((n, j) => (record[n] = typed(this.#cells[j])));
    return Frame.fromColumns(record, names);
  }
}

/** Types one column in place (see {@link CsvColumns.frame}); returns the same array. */
function typed(cells: unknown[]): unknown[] {
  let numbers = 0;
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i] as string;
    if (DECIMAL.test(c) || (c !== '' && !MISSING.test(c) && DECIMAL.test(c.trim()))) {
      numbers++;
    } else if (c !== '' && !MISSING.test(c)) {
      return asText(cells);
    }
  }
  if (numbers === 0) {
    return asText(cells);
  }
  // Every cell is now a decimal or a missing spelling, which Number reads as NaN.
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i] as string;
    const n = c === '' ? NaN : Number(c);
    cells[i] = Number.isNaN(n) ? null : n;
  }
  return cells;
}

/** Empty cells → null, in place. */
function asText(cells: unknown[]): unknown[] {
  for (let i = 0; i < cells.length; i++) {
    if (cells[i] === '') {
      cells[i] = null;
    }
  }
  return cells;
}
