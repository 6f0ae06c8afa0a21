import { fillMissing } from '../fill-missing.js';

/** One series made ready for a TimesFM graph: `time` values (a multiple of the patch length), left-padded. */
export interface PreparedRow {
  /** Steps of the row (whole patches); the graph input is left-padded to a run's longest row. */
  time: number;
  /** Model input (scaled; padded positions 0), length `time`. */
  values: Float32Array;
  /** 1 = padded, length `time`. */
  padding: Float32Array;
  /** Output = graph output × scale + shift (TimesFM 2.0: the scaling patch's mean/std; 2.5: the last patch's running mean/std). */
  shift: number;
  scale: number;
}

/** The observed part of a series, gaps filled (see fillMissing), cut to its last `contextLength` values. */
export function observed(series: Float32Array, contextLength: number): Float64Array {
  const { values } = fillMissing(series);
  return values.length > contextLength ? values.subarray(values.length - contextLength) : values;
}

function layout(length: number, patch: number): { time: number; pad: number } {
  const time = Math.max(patch, Math.ceil(length / patch) * patch);
  return { time, pad: time - length };
}

/** What {@link prepare20} reads of a TimesFM 2.0 config. */
export interface Prepare20Config {
  patch_length: number;
  pad_val: number;
  tolerance: number;
}

/**
 * TimesFM 2.0's input (transformers' `_preprocess` + `_timesfm_masked_mean_std`): values equal to `pad_val`
 * count as padding; mean and population std of the first patch with at least 3 real values (else the last
 * patch), std at least `tolerance`; real values scaled with them, padding 0. Left padding only to whole
 * patches: without position embeddings the reference's further all-padding patches change nothing.
 */
export function prepare20(x: Float64Array, c: Prepare20Config): PreparedRow {
  const P = c.patch_length;
  const { time, pad } = layout(x.length, P);
  const padding = new Float32Array(time).fill(1);
  for (let t = 0; t < x.length; t++) {
    padding[pad + t] = Math.abs(x[t] - c.pad_val) < c.tolerance ? 1 : 0;
  }
  const patches = time / P;
  let chosen = patches - 1;
  for (let k = 0; k < patches; k++) {
    let real = 0;
    for (let t = k * P; t < (k + 1) * P; t++) {real += 1 - padding[t];}
    if (real >= 3) {
      chosen = k;
      break;
    }
  }
  let n = 0;
  let sum = 0;
  let sumSq = 0;
  for (let t = chosen * P; t < (chosen + 1) * P; t++) {
    if (padding[t] === 0) {
      const v = x[t - pad];
      n++;
      sum += v;
      sumSq += v * v;
    }
  }
  const mean = n > 0 ? sum / n : 0;
  const std = Math.max(Math.sqrt(Math.max(0, n > 0 ? sumSq / n - mean * mean : 0)), c.tolerance);
  const values = new Float32Array(time);
  for (let t = 0; t < x.length; t++) {
    values[pad + t] = padding[pad + t] === 1 ? 0 : (x[t] - mean) / std;
  }
  return { time, values, padding, shift: mean, scale: std };
}

/** TimesFM 2.5's global RevIN of one series, over `contextLength` values with the left zero padding counted. */
export interface GlobalScale {
  mean: number;
  /** Unbiased (n − 1) std, raw: outputs are `y · std + mean`. */
  std: number;
}

const TOLERANCE = 1e-6;

/**
 * TimesFM 2.5's global statistics (transformers' `mu_global`, `sigma_global`): mean and unbiased std over the
 * `contextLength` values the model sees, the left zero padding included.
 */
export function globalScale(x: Float64Array, contextLength: number): GlobalScale {
  const n = Math.max(contextLength, x.length);
  let sum = 0;
  for (const v of x) {sum += v;}
  const mean = sum / n;
  let ss = (n - x.length) * mean * mean;
  for (const v of x) {ss += (v - mean) * (v - mean);}
  return { mean, std: n > 1 ? Math.sqrt(ss / (n - 1)) : 0 };
}

/**
 * TimesFM 2.5's input for the series `x` (already cut to the context) normalised by `g` and multiplied by `sign`
 * (−1 for the flip-invariance copy): each patch normalised by the running mean and population std of the real
 * values up to and including it (std below 1e-6 → 1), padding 0; the shift/scale are the last patch's raw
 * running mean/std (the mean negated with the input).
 */
export function prepare25(x: Float64Array, g: GlobalScale, patch: number, sign: 1 | -1): PreparedRow {
  const { time, pad } = layout(x.length, patch);
  const safe = g.std < TOLERANCE ? 1 : g.std;
  const values = new Float32Array(time);
  const padding = new Float32Array(time).fill(1);
  let n = 0;
  let sum = 0;
  let sumSq = 0;
  let mean = 0;
  let std = 0;
  for (let k = 0; k < time / patch; k++) {
    for (let t = k * patch; t < (k + 1) * patch; t++) {
      if (t >= pad) {
        const v = (sign * (x[t - pad] - g.mean)) / safe;
        n++;
        sum += v;
        sumSq += v * v;
      }
    }
    mean = n > 0 ? sum / n : 0;
    std = n > 0 ? Math.sqrt(Math.max(0, sumSq / n - mean * mean)) : 0;
    const s = std < TOLERANCE ? 1 : std;
    for (let t = Math.max(k * patch, pad); t < (k + 1) * patch; t++) {
      values[t] = ((sign * (x[t - pad] - g.mean)) / safe - mean) / s;
      padding[t] = 0;
    }
  }
  return { time, values, padding, shift: mean, scale: std };
}
