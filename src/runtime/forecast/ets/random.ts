/**
 * A seeded generator of standard normal draws (mulberry32 uniforms, Box–Muller pairs): the same
 * seed gives the same sequence on every platform, so simulated intervals are reproducible.
 */
export function normalGenerator(seed: number): () => number {
  let a = seed >>> 0;
  const uniform = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  let spare = Number.NaN;
  return () => {
    if (!Number.isNaN(spare)) {
      const v = spare;
      spare = Number.NaN;
      return v;
    }
    const r = Math.sqrt(-2 * Math.log(uniform()));
    const th = 2 * Math.PI * uniform();
    spare = r * Math.sin(th);
    return r * Math.cos(th);
  };
}
