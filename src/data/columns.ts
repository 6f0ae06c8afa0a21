import { arrowColumns, isArrowTable, type ArrowTableLike } from './frame/arrow-table.js';
import { danfoColumns, isDanfoFrame, type DanfoFrameLike } from './frame/danfo-frame.js';
import { Frame, isFrame, type Row } from './frame/frame.js';

export type { Row } from './frame/frame.js';

/**
 * A table: inferkit's {@link Frame}, plain row objects, an Apache Arrow Table or a danfojs DataFrame (the last
 * two duck-typed: neither package needs to be installed unless you pass one).
 */
export type FrameLike = Frame | readonly Row[] | ArrowTableLike | DanfoFrameLike;

/** A table object (not a row array): an inferkit Frame, an Arrow Table or a danfojs DataFrame. */
export type TableObject = Frame | ArrowTableLike | DanfoFrameLike;

/** A table as named columns of equal length. */
export interface Columns {
  names: string[];
  length: number;
  get(name: string): unknown[] | undefined;
}

/**
 * True for a table object — an inferkit Frame, an Apache Arrow Table or a danfojs DataFrame (duck-typed, so
 * tables from another module instance count too) — false for row arrays and anything else.
 */
export function isDataFrame(value: unknown): value is TableObject {
  return isFrame(value) || isArrowTable(value) || isDanfoFrame(value);
}

/** Column names of a table without reading its cells (rows: the first row's keys). */
export function columnNames(frame: FrameLike): string[] {
  if (isFrame(frame)) {
    return [...frame.columns];
  }
  if (isArrowTable(frame)) {
    return frame.schema.fields.map((f) => f.name);
  }
  if (isDanfoFrame(frame)) {
    return [...frame.columns];
  }
  return Object.keys((frame as readonly Row[])[0] ?? {});
}

/** Reads any {@link FrameLike} as columns; rows' column set is the union of their keys, in first-seen order. */
export function toColumns(frame: FrameLike): Columns {
  if (isFrame(frame)) {
    return { names: [...frame.columns], length: frame.length, get: (n) => (frame.has(n) ? frame.column(n) : undefined) };
  }
  if (isArrowTable(frame) || isDanfoFrame(frame)) {
    const { names, data } = isArrowTable(frame) ? arrowColumns(frame) : danfoColumns(frame);
    return { names, length: isArrowTable(frame) ? frame.numRows : frame.shape[0], get: (n) => data.get(n) };
  }
  const rows = frame as readonly Row[];
  const names: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    for (const k of Object.keys(row)) {
      if (!seen.has(k)) {
        seen.add(k);
        names.push(k);
      }
    }
  }
  const cache = new Map<string, unknown[]>();
  return {
    names,
    length: rows.length,
    get: (n) => {
      if (!seen.has(n)) {
        return undefined;
      }
      let col = cache.get(n);
      if (!col) {
        col = rows.map((r) => r[n]);
        cache.set(n, col);
      }
      return col;
    },
  };
}

/** Rows of any {@link FrameLike} (a copy). */
export function toRows(frame: FrameLike): Row[] {
  if (isFrame(frame)) {
    return frame.toRows();
  }
  if (!isDataFrame(frame)) {
    return (frame as readonly Row[]).map((r) => ({ ...r }));
  }
  const cols = toColumns(frame);
  return Array.from({ length: cols.length }, (_, i) => {
    const row: Row = {};
    for (const n of cols.names) {
      row[n] = cols.get(n)?.[i];
    }
    return row;
  });
}

/** Any {@link FrameLike} as an inferkit Frame (a Frame itself as is). */
export function toFrame(frame: FrameLike): Frame {
  if (isFrame(frame)) {
    return frame;
  }
  const cols = toColumns(frame);
  return Frame.fromColumns(Object.fromEntries(cols.names.map((n) => [n, cols.get(n) ?? []])), cols.names);
}

/** Builds a Frame from rows with the given column order (an empty frame keeps its columns; missing cells null). */
export function rowsToFrame(rows: readonly Row[], columns: readonly string[]): Frame {
  return Frame.fromRows(rows, columns);
}
