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

  constructor(readonly source: string) {}

  /** Takes one record ending on `line` (0 when unknown). Throws on a duplicate header name. */
  add(record: string[], line: number): void {
    this.#lastLine = line;
    if (this.#header === undefined) {
      this.#header = this.#names(record, line || 1);
      this.#cells = this.#header.map(() => []);
      return;
    }
    for (let j = 0; j < record.length; j++) {
      this.#cells[j].push(record[j]);
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
   * their offsets). A header-only file gives an empty frame with its columns.
   */
  frame(): Frame {
    const names = this.#header ?? [];
    const record: Record<string, unknown[]> = {};
    names.forEach((n, j) => (record[n] = typed(this.#cells[j])));
    return Frame.fromColumns(record, names);
  }
}

function typed(cells: string[]): unknown[] {
  const out: unknown[] = new Array<unknown>(cells.length);
  let numbers = 0;
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (c === '' || MISSING.test(c)) {
      out[i] = null;
    } else if (DECIMAL.test(c) || DECIMAL.test(c.trim())) {
      out[i] = Number(c);
      numbers++;
    } else {
      return cells.map((v) => (v === '' ? null : v));
    }
  }
  return numbers > 0 ? out : cells.map((v) => (v === '' ? null : v));
}
