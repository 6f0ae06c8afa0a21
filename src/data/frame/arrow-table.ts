/**
 * The part of an Apache Arrow `Table` (`apache-arrow`, an optional peer of inferkit) that inferkit reads,
 * duck-typed so that no Arrow module has to be loaded and tables from any Arrow version or module instance count.
 */
export interface ArrowTableLike {
  readonly numRows: number;
  readonly schema: { readonly fields: ReadonlyArray<{ readonly name: string; readonly type: { readonly typeId: number } }> };
  getChild(name: string): Iterable<unknown> | null;
}

/** Arrow's `Type.Date` and `Type.Timestamp` (stable ids of the Arrow format's `Type` enum). */
const ARROW_DATE = 8;
const ARROW_TIMESTAMP = 10;

/** True for an Apache Arrow Table (duck-typed: `numRows`, `schema.fields`, `getChild`). */
export function isArrowTable(value: unknown): value is ArrowTableLike {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const v = value as { numRows?: unknown; schema?: { fields?: unknown }; getChild?: unknown };
  return typeof v.numRows === 'number' && typeof v.getChild === 'function' && Array.isArray(v.schema?.fields);
}

/** One cell as inferkit reads it: Arrow dates and timestamps (epoch ms) → Date, 64-bit integers → number. */
function cell(v: unknown, temporal: boolean): unknown {
  if (v === null || v === undefined) {
    return null;
  }
  if (typeof v === 'bigint') {
    return temporal ? new Date(Number(v)) : Number(v);
  }
  return temporal && typeof v === 'number' ? new Date(v) : v;
}

/** The columns of an Arrow table as plain arrays (nulls kept), in schema order. */
export function arrowColumns(table: ArrowTableLike): { names: string[]; data: Map<string, unknown[]> } {
  const names = table.schema.fields.map((f) => f.name);
  const data = new Map<string, unknown[]>();
  for (const field of table.schema.fields) {
    const temporal = field.type.typeId === ARROW_DATE || field.type.typeId === ARROW_TIMESTAMP;
    const vector = table.getChild(field.name);
    data.set(field.name, vector === null ? Array<null>(table.numRows).fill(null) : Array.from(vector, (v) => cell(v, temporal)));
  }
  return { names, data };
}
