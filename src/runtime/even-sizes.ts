/**
 * `total` items cut into `parts` consecutive parts whose sizes differ by one at most, the larger ones
 * first (17 into 3: 6, 6, 5; never 8, 8, 1): a tiny last run costs nearly as much as a full one. `parts`
 * is clamped to 1..total, NaN counting as 1 (an empty list for no items).
 */
export function evenSizes(total: number, parts: number): number[] {
  if (total <= 0) {
    return [];
  }
  const n = Math.max(1, Math.min(total, Number.isFinite(parts) ? Math.floor(parts) : 1));
  return Array.from({ length: n }, (_, k) => Math.floor(total / n) + (k < total % n ? 1 : 0));
}

/** `items` cut into consecutive slices of `sizes` (e.g. {@link evenSizes}); items past their sum are left out. */
export function slicesOf<T>(items: readonly T[], sizes: readonly number[]): T[][] {
  let start = 0;
  return sizes.map((n) => items.slice(start, (start += n)));
}
