import { parseFrequency, stepMonths, stepSeconds, type Frequency, type FrequencyUnit } from '../../contract/enums.js';

/**
 * Season length of one step of each unit: hour 24 (daily cycle), day 7 (weekly), week 52 (yearly,
 * rounded), month 12, quarter 4, year 1 (no season), minute 1440 (daily), second 60 (the minute's
 * cycle — a guess; override with `season` when you know better). Multiples and anchors: see
 * {@link seasonalPeriods}.
 */
export const SEASON_BY_FREQUENCY: Readonly<Record<FrequencyUnit, number>> = {
  second: 60,
  minute: 1440,
  hour: 24,
  day: 7,
  week: 52,
  month: 12,
  quarter: 4,
  year: 1,
};

const MINUTE = 60, HOUR = 3600, DAY = 86_400, WEEK = 7 * DAY;

/**
 * The natural seasonal periods of a frequency, shortest first, in steps: the cycles that hold a whole
 * number (≥ 2) of steps. Sub-hourly and hourly steps: the day and the week (`30min` → 48, 336; `h` →
 * 24, 168; `15min` → 96, 672; `2h` → 12, 84); steps under a minute: the minute and the hour (`s` → 60,
 * 3600); days: the week and the year (`D` → 7, 365); weeks: the year (52, `2W` → 26); calendar steps:
 * the year (`M` → 12, `Q` → 4, `2M` → 6, `2Q` → 2); `Y` → none. Unknown frequencies → none.
 * MSTL-style models use all of them; single-season baselines the first. With `length`, only periods
 * the series covers at least `minCycles` times are kept (`seasonalPeriods('30min', 600, 2)` → [48]).
 */
export function seasonalPeriods(frequency: Frequency | undefined, length = Number.POSITIVE_INFINITY, minCycles = 1): number[] {
  const spec = frequency === undefined ? undefined : parseFrequency(frequency);
  if (!spec) {
    return [];
  }
  const seconds = stepSeconds(spec);
  const cycles =
    seconds === undefined
      ? [12 / (stepMonths(spec) ?? 12)]
      : (seconds < MINUTE ? [MINUTE, HOUR] : seconds < DAY ? [DAY, WEEK] : seconds < WEEK ? [WEEK, 365 * DAY] : [52 * WEEK]).map((c) => c / seconds);
  return cycles.filter((p) => Number.isInteger(p) && p >= 2 && length >= p * minCycles);
}

/**
 * The season for a series of `length` steps: `override`, else the frequency's shortest period
 * ({@link seasonalPeriods}), else 1; falls back to 1 when the series is shorter than `minCycles` seasons.
 */
export function seasonFor(frequency: Frequency | undefined, length: number, override?: number, minCycles = 1): number {
  const m = override ?? seasonalPeriods(frequency)[0] ?? 1;
  return Number.isInteger(m) && m > 1 && length >= m * minCycles ? m : 1;
}

/** Inverse of the standard normal CDF (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) {
    return p === 0 ? -Infinity : p === 1 ? Infinity : Number.NaN;
  }
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  if (p < lo || p > 1 - lo) {
    const q = Math.sqrt(-2 * Math.log(p < lo ? p : 1 - p));
    const x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    return p < lo ? x : -x;
  }
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/**
 * Classical decomposition's seasonal indices of `x[0..end)`: detrended by a centred moving average of
 * order m (2×m for even m), averaged per position (`offset` + t) mod m (`offset` = the season position of
 * `x[0]`), normalised to average 1 (multiplicative) or 0 (additive). A position never seen gets 1 or 0.
 */
export function classicalSeasonalIndices(x: ArrayLike<number>, m: number, multiplicative: boolean, offset = 0, end = x.length): Float64Array {
  const sum = new Float64Array(m);
  const count = new Float64Array(m);
  const half = Math.floor(m / 2);
  for (let t = half; t < end - half; t++) {
    let trend = 0;
    if (m % 2 === 0) {
      trend = 0.5 * (x[t - half] + x[t + half]);
      for (let k = t - half + 1; k < t + half; k++) {
        trend += x[k];
      }
    } else {
      for (let k = t - half; k <= t + half; k++) {
        trend += x[k];
      }
    }
    trend /= m;
    const pos = (offset + t) % m;
    sum[pos] += multiplicative ? x[t] / trend : x[t] - trend;
    count[pos]++;
  }
  const idx = sum.map((v, i) => (count[i] > 0 ? v / count[i] : multiplicative ? 1 : 0));
  const avg = idx.reduce((a, v) => a + v, 0) / m;
  return idx.map((v) => (multiplicative ? v / avg : v - avg));
}
