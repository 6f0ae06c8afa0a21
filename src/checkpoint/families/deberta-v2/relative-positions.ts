/**
 * DeBERTa-v2's log-bucketed relative positions, computed at build time.
 *
 * The relative position of query i to key j is `δ = i − j`; with `positionBuckets > 0` it is bucketed:
 * kept as is while |δ| ≤ buckets/2, else `sign(δ) · (ceil(log(|δ|/mid) / log((maxPosition − 1)/mid) · (mid − 1)) + mid)`
 * (mid = buckets/2), evaluated in float32 as transformers does. The attention reads the relative embedding row
 * `clamp(bucket + span, 0, 2·span − 1)` (c2p) and `clamp(span − bucket, …)` (p2c, indexed by key − query).
 */
export function relativeBucket(delta: number, positionBuckets: number, maxPosition: number): number {
  if (positionBuckets <= 0 || maxPosition <= 0) {
    return delta;
  }
  const f = Math.fround;
  const mid = Math.floor(positionBuckets / 2);
  const abs = delta < mid && delta > -mid ? mid - 1 : Math.abs(delta);
  if (abs <= mid) {
    return delta;
  }
  const ratio = f(Math.log(f(abs / mid)));
  const denominator = f(Math.log(f((maxPosition - 1) / mid)));
  const logPos = Math.ceil(f(f(ratio / denominator) * (mid - 1))) + mid;
  return Math.sign(delta) * logPos;
}

/**
 * The embedding-row tables of the attention's position terms for every `δ = row − column` in
 * `[−(maxLength − 1), maxLength − 1]`, stored at `δ + maxLength − 1`: `c2p[δ] = clamp(bucket(δ) + span)`,
 * `p2c[δ] = clamp(span − bucket(δ))`, both clamped to `[0, 2·span − 1]`.
 */
export function relativeIndexTables(maxLength: number, span: number, positionBuckets: number, maxPosition: number): { c2p: BigInt64Array; p2c: BigInt64Array } {
  const size = 2 * maxLength - 1;
  const c2p = new BigInt64Array(size);
  const p2c = new BigInt64Array(size);
  const clamp = (v: number): bigint => BigInt(Math.min(2 * span - 1, Math.max(0, v)));
  for (let k = 0; k < size; k++) {
    const bucket = relativeBucket(k - (maxLength - 1), positionBuckets, maxPosition);
    c2p[k] = clamp(bucket + span);
    p2c[k] = clamp(span - bucket);
  }
  return { c2p, p2c };
}
