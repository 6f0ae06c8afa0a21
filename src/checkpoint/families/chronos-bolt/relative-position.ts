/** T5's relative-position settings. */
export interface RelativePositionOptions {
  /** `relative_attention_num_buckets`. */
  buckets: number;
  /** `relative_attention_max_distance`. */
  maxDistance: number;
  /** Encoder attention: both directions get their own half of the buckets. */
  bidirectional: boolean;
}

/**
 * T5's bucket of a relative position `memory - query` (transformers' `_relative_position_bucket`): exact
 * below half the (directional) buckets, logarithmic up to `maxDistance`. The logarithmic part is computed
 * in float32, step by step as PyTorch does (so a bucket boundary lands where it lands there).
 */
export function relativePositionBucket(relative: number, options: RelativePositionOptions): number {
  let buckets = options.buckets;
  let bucket = 0;
  let distance: number;
  if (options.bidirectional) {
    buckets = Math.floor(buckets / 2);
    bucket += relative > 0 ? buckets : 0;
    distance = Math.abs(relative);
  } else {
    distance = -Math.min(relative, 0);
  }
  const maxExact = Math.floor(buckets / 2);
  if (distance < maxExact) {
    return bucket + distance;
  }
  const f = Math.fround;
  const logRatio = f(Math.log(f(distance / maxExact)));
  const scaled = f(f(logRatio / f(Math.log(options.maxDistance / maxExact))) * (buckets - maxExact));
  return bucket + Math.min(maxExact + Math.trunc(scaled), buckets - 1);
}

/**
 * The position bias of every query/key pair of a sequence up to `length` long, per head: float32
 * [heads, length, length] with `out[h, i, j] = weight[bucket(j - i), h]`, where `weight` is a row-major
 * `relative_attention_bias.weight` [buckets, heads]. A shorter sequence takes its top-left corner (the bias
 * depends on `j - i` only).
 */
export function positionBiasTable(weight: Float32Array, heads: number, length: number, options: RelativePositionOptions): Float32Array {
  const byOffset = new Map<number, number>();
  const out = new Float32Array(heads * length * length);
  for (let i = 0; i < length; i++) {
    for (let j = 0; j < length; j++) {
      let b = byOffset.get(j - i);
      if (b === undefined) {
        b = relativePositionBucket(j - i, options);
        byOffset.set(j - i, b);
      }
      for (let h = 0; h < heads; h++) {
        out[(h * length + i) * length + j] = weight[b * heads + h];
      }
    }
  }
  return out;
}
