/** `s` followed by `tail`, keeping at most the last `keep` values (the context a rollout step reads). */
export function appendTail(s: Float32Array, tail: Float32Array, keep: number): Float32Array {
  const total = s.length + tail.length;
  const from = Math.max(0, total - keep);
  const out = new Float32Array(total - from);
  if (from < s.length) {
    out.set(s.subarray(from), 0);
  }
  out.set(tail.subarray(Math.max(0, from - s.length)), Math.max(0, s.length - from));
  return out;
}
