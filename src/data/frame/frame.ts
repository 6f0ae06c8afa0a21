import { inspect } from 'node:util';
import { InferkitError } from '../../errors.js';
import { JUPYTER_DISPLAY } from '../../plot/deno-jupyter.js';
import { frameHtml } from '../../plot/frame-html.js';
import { framePreview } from './frame-preview.js';

/** Rows a text preview shows, of them from the end. */
const PREVIEW_ROWS = 20;
const PREVIEW_TAIL = 5;

/** Marks Frames, so that one from another copy of inferkit (a notebook re-evaluating modules) is still known. */
const FRAME_BRAND = Symbol.for('inferkit.Frame');

/** One record of a table: column name → cell. */
export type Row = Record<string, unknown>;

/**
 * inferkit's own small table: named columns of equal length, kept column-major. What `forecastToFrame`,
 * `batchForecast(…).frame`, `crossValidation` and `readCsv` return. It shows as an HTML table with
 * `displayFrame(frame)`, as a text table when a notebook cell ends with it, writes CSV with
 * `writeCsv(frame, path)`, and becomes a danfojs DataFrame with {@link Frame.toDanfo} where danfojs is installed.
 * In Deno's Jupyter kernel a cell ending with a frame shows the HTML table (`Symbol.for('Jupyter.display')`).
 * Read-only by convention: the arrays handed out are the frame's own.
 */
export class Frame {
  /** Column names, in order. */
  readonly columns: readonly string[];
  readonly #data: ReadonlyMap<string, unknown[]>;
  readonly #length: number;
  readonly [FRAME_BRAND] = true;

  private constructor(columns: readonly string[], data: Map<string, unknown[]>, length: number) {
    this.columns = columns;
    this.#data = data;
    this.#length = length;
  }

  /**
   * A frame from named column arrays (taken, not copied), in `columns` order (default: the record's keys).
   * Throws an InferkitError `invalid_request` when the arrays differ in length or a named column is missing.
   */
  static fromColumns(record: Readonly<Record<string, unknown[]>>, columns: readonly string[] = Object.keys(record)): Frame {
    const data = new Map<string, unknown[]>();
    let length: number | undefined;
    for (const name of columns) {
      const col = record[name];
      if (!Array.isArray(col)) {
        throw new InferkitError('invalid_request', `Frame.fromColumns: no array for column "${name}"`, { param: name });
      }
      if (length !== undefined && col.length !== length) {
        throw new InferkitError('invalid_request', `Frame.fromColumns: column "${name}" has ${col.length} values, "${columns[0]}" has ${length}`, { param: name });
      }
      length = col.length;
      data.set(name, col);
    }
    return new Frame([...new Set(columns)], data, length ?? 0);
  }

  /**
   * A frame from row objects. Columns: `columns` if given (an empty frame keeps them), else the union of the
   * rows' keys in first-seen order. A key a row lacks is `null`.
   */
  static fromRows(rows: readonly Row[], columns?: readonly string[]): Frame {
    let names = columns;
    if (names === undefined) {
      const seen = new Set<string>();
      for (const row of rows) {
        for (const k of Object.keys(row)) {
          seen.add(k);
        }
      }
      names = [...seen];
    }
    const record: Record<string, unknown[]> = {};
    for (const n of names) {
      record[n] = rows.map((r) => (r[n] === undefined ? null : r[n]));
    }
    return Frame.fromColumns(record, names);
  }

  /** Frames one below the other; columns are the union in first-seen order, missing cells `null` (like `pd.concat`). */
  static concat(frames: readonly Frame[]): Frame {
    const names = [...new Set(frames.flatMap((f) => f.columns))];
    const record: Record<string, unknown[]> = {};
    for (const n of names) {
      record[n] = frames.flatMap((f) => f.#data.get(n) ?? Array<null>(f.#length).fill(null));
    }
    return Frame.fromColumns(record, names);
  }

  /** `[rows, columns]`, as in pandas and danfojs. */
  get shape(): [number, number] {
    return [this.#length, this.columns.length];
  }

  /** Number of rows. */
  get length(): number {
    return this.#length;
  }

  /** Cells row by row (`values[row][column]`), built on each read. */
  get values(): unknown[][] {
    const cols = this.columns.map((n) => this.#data.get(n) ?? []);
    return Array.from({ length: this.#length }, (_, i) => cols.map((c) => c[i]));
  }

  /** The cells of one column; throws an InferkitError `invalid_request` naming the columns when there is none such. */
  column(name: string): unknown[] {
    const col = this.#data.get(name);
    if (col === undefined) {
      throw new InferkitError('invalid_request', `no column "${name}"; columns are ${this.columns.join(', ')}`, { param: name });
    }
    return col;
  }

  /** Whether the frame has a column of that name. */
  has(name: string): boolean {
    return this.#data.has(name);
  }

  /** Rows as objects (a copy). */
  toRows(): Row[] {
    const cols = this.columns.map((n) => [n, this.#data.get(n) ?? []] as const);
    return Array.from({ length: this.#length }, (_, i) => Object.fromEntries(cols.map(([n, c]) => [n, c[i]])));
  }

  /** Rows `start` (inclusive) to `end` (exclusive), negative counting from the end, as `Array.prototype.slice`. */
  slice(start?: number, end?: number): Frame {
    const record: Record<string, unknown[]> = {};
    for (const n of this.columns) {
      record[n] = (this.#data.get(n) ?? []).slice(start, end);
    }
    return Frame.fromColumns(record, this.columns);
  }

  /** The first `n` rows. */
  head(n = 5): Frame {
    return this.slice(0, Math.max(0, n));
  }

  /** The last `n` rows. */
  tail(n = 5): Frame {
    return n <= 0 ? this.slice(this.#length) : this.slice(-n);
  }

  /** The rows for which `predicate` is true. */
  filter(predicate: (row: Row, index: number) => boolean): Frame {
    return Frame.fromRows(this.toRows().filter(predicate), this.columns);
  }

  /** Only the named columns, in that order. */
  select(...names: string[]): Frame {
    return Frame.fromColumns(Object.fromEntries(names.map((n) => [n, this.column(n)])), names);
  }

  /**
   * The same table as a danfojs DataFrame, for danfojs' own methods. danfojs is an optional peer of inferkit:
   * loads `danfojs-node`, else `danfojs`; throws an InferkitError `config` saying how to install it when neither is there.
   */
  async toDanfo(): Promise<unknown> {
    const dfd = await loadDanfo();
    const data: Record<string, unknown[]> = {};
    for (const n of this.columns) {
      data[n] = this.column(n);
    }
    return this.#length === 0 ? new dfd.DataFrame([], { columns: [...this.columns] }) : new dfd.DataFrame(data, { columns: [...this.columns] });
  }

  /** A text table (first and last rows, shape) — what `console.log(frame)` and a cell ending in a frame show. */
  toString(): string {
    const cut = this.#length > PREVIEW_ROWS;
    return framePreview(this.columns, cut ? [...this.head(PREVIEW_ROWS - PREVIEW_TAIL).values, ...this.tail(PREVIEW_TAIL).values] : this.values, this.#length, PREVIEW_TAIL);
  }

  [inspect.custom](): string {
    return this.toString();
  }

  /** What Deno's Jupyter kernel shows for a cell ending with this frame: the HTML table of `displayFrame`, and the text table. */
  [JUPYTER_DISPLAY](): { 'text/html': string; 'text/plain': string } {
    return { 'text/html': frameHtml(this), 'text/plain': this.toString() };
  }
}

/** True for an inferkit {@link Frame}, also one made by another loaded copy of inferkit. */
export function isFrame(value: unknown): value is Frame {
  return value instanceof Frame || (typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[FRAME_BRAND] === true);
}

/** The part of danfojs that {@link Frame.toDanfo} uses. */
interface DanfoModule {
  DataFrame: new (data: unknown, options?: { columns?: string[] }) => unknown;
}

async function loadDanfo(): Promise<DanfoModule> {
  const errors: string[] = [];
  for (const name of ['danfojs-node', 'danfojs']) {
    try {
      const mod = (await import(name)) as Partial<DanfoModule> & { default?: Partial<DanfoModule> };
      const dfd = mod.DataFrame ? mod : mod.default;
      if (dfd?.DataFrame) {
        return dfd as DanfoModule;
      }
    } catch (e) {
      errors.push(`${name}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
  }
  throw new InferkitError('config', `toDanfo needs danfojs, an optional peer of inferkit: npm install danfojs-node (${errors.join('; ')})`);
}
