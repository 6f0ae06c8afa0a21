import type { Table } from './table.js';

/** What one benchmark hands to the report: its tables and the peak RSS seen while it ran. */
export interface BenchResult {
  tables: Table[];
  /** Highest RSS sampled during the benchmark, bytes. */
  peakRssBytes?: number;
  /** Lines printed under the benchmark's tables. */
  notes?: string[];
}

/** Options every benchmark of this folder takes. */
export interface BenchOptions {
  /** Small sizes for a smoke run (< 2 minutes in all). */
  quick?: boolean;
  /** ONNX Runtime intra-op threads per session. @default 1 */
  threads?: number;
  /** Progress lines (stderr by default in run-all). */
  log?: (line: string) => void;
}
