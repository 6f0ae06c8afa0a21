import type { BenchResult } from './bench-result.js';
import { markdownTable, renderTable, type Table } from './table.js';

/** A benchmark's output as markdown blocks plus the peak RSS it reported, whatever shape it returned. */
export interface NormalizedResult {
  blocks: string[];
  peakRssBytes?: number;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isTable(v: unknown): v is Table {
  return isRecord(v) && Array.isArray(v.headers) && Array.isArray(v.rows);
}

function cell(v: unknown): string {
  if (typeof v === 'number') {
    return Number.isInteger(v) ? v.toLocaleString('en-US') : v.toPrecision(4);
  }
  if (typeof v === 'string') {
    return v;
  }
  return v === undefined || v === null ? '' : JSON.stringify(v);
}

/** An array of plain records as one markdown table (columns = the union of their keys). */
function recordsTable(records: readonly Record<string, unknown>[]): string {
  const headers = [...new Set(records.flatMap((r) => Object.keys(r)))];
  return markdownTable(headers, records.map((r) => headers.map((h) => cell(r[h]))));
}

/**
 * Accepts what colleagues' `run…Bench` functions may return: a markdown string, a
 * {@link BenchResult} (`tables` of headers/rows), `{ markdown }`, a table, an array of any of
 * these, or an array of plain records (rendered as one table). Anything else is shown as JSON.
 */
export function normalizeResult(value: unknown): NormalizedResult {
  if (value === undefined || value === null) {
    return { blocks: ['(the benchmark returned nothing; see its console output)'] };
  }
  if (typeof value === 'string') {
    return { blocks: [value.trim()] };
  }
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every((v) => isRecord(v) && !isTable(v) && !('tables' in v) && !('markdown' in v))) {
      return { blocks: [recordsTable(value as Record<string, unknown>[])] };
    }
    const parts = value.map(normalizeResult);
    const peaks = parts.map((p) => p.peakRssBytes).filter((p): p is number => p !== undefined);
    return { blocks: parts.flatMap((p) => p.blocks), peakRssBytes: peaks.length > 0 ? Math.max(...peaks) : undefined };
  }
  if (isTable(value)) {
    return { blocks: [typeof value.title === 'string' ? renderTable(value) : markdownTable(value.headers, value.rows)] };
  }
  if (isRecord(value)) {
    const r = value as Partial<BenchResult> & { markdown?: unknown; peakRss?: unknown };
    const blocks: string[] = [];
    if (typeof r.markdown === 'string') {
      blocks.push(r.markdown.trim());
    }
    if (Array.isArray(r.tables)) {
      blocks.push(...normalizeResult(r.tables).blocks);
    }
    if (Array.isArray(r.notes)) {
      blocks.push(r.notes.map((n) => `- ${String(n)}`).join('\n'));
    }
    const peak = typeof r.peakRssBytes === 'number' ? r.peakRssBytes : typeof r.peakRss === 'number' ? r.peakRss : undefined;
    if (blocks.length > 0) {
      return { blocks, peakRssBytes: peak };
    }
  }
  return { blocks: [`\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``] };
}
