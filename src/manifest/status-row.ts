import type { InferenceService, TrafficTarget } from '../contract/inference-service.js';
import { formatAge } from './format-age.js';

/** One row of `kubectl get isvc`; empty string where kubectl shows an empty cell. */
export interface StatusRow {
  NAME: string;
  URL: string;
  READY: string;
  PREV: string;
  LATEST: string;
  PREVROLLEDOUTREVISION: string;
  LATESTREADYREVISION: string;
  AGE: string;
}

/** Column order of the status listing. */
export const STATUS_COLUMNS = [
  'NAME',
  'URL',
  'READY',
  'PREV',
  'LATEST',
  'PREVROLLEDOUTREVISION',
  'LATESTREADYREVISION',
  'AGE',
] as const satisfies ReadonlyArray<keyof StatusRow>;

/**
 * The status listing row of a service, computed like the CRD's printer columns: URL `.status.url`;
 * READY the `Ready` condition's status; PREV / LATEST the traffic percent of the predictor's
 * `prev`-tagged / `latestRevision` target and the two revision names; AGE since
 * `metadata.creationTimestamp` (`<unknown>` without one). `now` is epoch milliseconds.
 */
export function statusRow(isvc: InferenceService, now: number = Date.now()): StatusRow {
  const status = isvc.status;
  const traffic: TrafficTarget[] = status?.components?.predictor?.traffic ?? [];
  const prev = traffic.find((t) => t.tag === 'prev');
  const latest = traffic.find((t) => t.latestRevision === true);
  const created = isvc.metadata.creationTimestamp;
  const createdMs = created === undefined ? Number.NaN : Date.parse(created);
  return {
    NAME: isvc.metadata.name,
    URL: status?.url ?? '',
    READY: status?.conditions?.find((c) => c.type === 'Ready')?.status ?? '',
    PREV: cell(prev?.percent),
    LATEST: cell(latest?.percent),
    PREVROLLEDOUTREVISION: prev?.revisionName ?? '',
    LATESTREADYREVISION: latest?.revisionName ?? '',
    AGE: Number.isNaN(createdMs) ? '<unknown>' : formatAge(now - createdMs),
  };
}

function cell(n: number | undefined): string {
  return n === undefined ? '' : String(n);
}

/** Formats rows as kubectl prints them: a header, then the rows ({@link formatColumns}). */
export function formatStatusTable(rows: readonly StatusRow[]): string {
  return formatColumns([STATUS_COLUMNS.map((c) => c as string), ...rows.map((r) => STATUS_COLUMNS.map((c) => r[c]))]);
}

/**
 * Lines of cells (the first usually the header) as kubectl's tabwriter lays them out: each column padded to its widest
 * cell plus 3 spaces (at least 6 wide), no padding after the last column; one `\n` after each line.
 */
export function formatColumns(table: ReadonlyArray<readonly string[]>): string {
  const widths = table[0].map((_, j) => Math.max(6, ...table.map((line) => line[j].length + 3)));
  return table
    .map((line) => line.map((c, j) => (j === line.length - 1 ? c : c.padEnd(widths[j]))).join('').trimEnd())
    .join('\n')
    .concat('\n');
}
