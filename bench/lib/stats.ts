/** Median, extremes and count of a sample. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

/** Median of `values` (mean of the two middle values for an even count); NaN for an empty sample. */
export function median(values: readonly number[]): number {
  if (values.length === 0) {
    return Number.NaN;
  }
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Smallest and largest value; NaN for an empty sample. */
export function minMax(values: readonly number[]): { min: number; max: number } {
  if (values.length === 0) {
    return { min: Number.NaN, max: Number.NaN };
  }
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) {
      min = v;
    }
    if (v > max) {
      max = v;
    }
  }
  return { min, max };
}

/** Median, min, max and count of a sample. */
export function summarize(values: readonly number[]): Summary {
  return { median: median(values), ...minMax(values), n: values.length };
}

/** The p-th percentile (0–100) by nearest rank; NaN for an empty sample. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) {
    return Number.NaN;
  }
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

/**
 * Converts a summary of milliseconds per call into units per second (`units` done per call).
 * The fastest call gives the highest rate, so min and max swap.
 */
export function rateOf(ms: Summary, units: number): Summary {
  const rate = (t: number) => (t > 0 ? (units * 1000) / t : Number.NaN);
  return { median: rate(ms.median), min: rate(ms.max), max: rate(ms.min), n: ms.n };
}

/** A number with about 3 significant digits and thousands separators (`12,345`, `123`, `12.3`, `0.123`). */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) {
    return 'n/a';
  }
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** `median (min–max)`, e.g. `12.3 (11.9–13.0)`; just the median when there is one sample. */
export function formatSummary(s: Summary): string {
  if (s.n <= 1 || s.min === s.max) {
    return formatNumber(s.median);
  }
  return `${formatNumber(s.median)} (${formatNumber(s.min)}–${formatNumber(s.max)})`;
}

/** `numerator / denominator` as `0.93×` (two decimals); `n/a` when either is missing or not positive. */
export function formatRatio(numerator: number | undefined, denominator: number | undefined): string {
  if (numerator === undefined || denominator === undefined) {
    return 'n/a';
  }
  if (!Number.isFinite(numerator) || !Number.isFinite(denominator) || denominator <= 0 || numerator < 0) {
    return 'n/a';
  }
  return `${(numerator / denominator).toFixed(2)}×`;
}

/** Bytes as MiB with no decimals (`1,234 MiB`). */
export function formatMiB(bytes: number): string {
  if (!Number.isFinite(bytes)) {
    return 'n/a';
  }
  return `${Math.round(bytes / 2 ** 20).toLocaleString('en-US')} MiB`;
}
