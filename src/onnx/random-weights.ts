/** A deterministic pseudo-random source (32-bit state, mulberry-style mixing). */
export interface SeededRandom {
  /** Uniform in [0, 1). */
  uniform(): number;
  /** Standard normal (Box–Muller). */
  normal(): number;
}

/** Creates a deterministic random source: the same seed always gives the same sequence. */
export function createSeededRandom(seed: number): SeededRandom {
  let state = (Math.floor(seed) ^ 0x9e3779b9) >>> 0;
  let spare: number | undefined;
  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = (): number => {
    if (spare !== undefined) {
      const s = spare;
      spare = undefined;
      return s;
    }
    const u = 1 - uniform();
    const v = uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
  return { uniform, normal };
}

let normalTable: Float32Array | undefined;

/** 65536 standard-normal samples from a fixed seed, built on first use. */
function getNormalTable(): Float32Array {
  if (normalTable === undefined) {
    const random = createSeededRandom(0x5eed);
    normalTable = new Float32Array(65536);
    for (let i = 0; i < normalTable.length; i++) {
      normalTable[i] = random.normal();
    }
  }
  return normalTable;
}

/**
 * A new Float32Array of `length` values, approximately normal(0, std²): a fixed table of
 * normal samples indexed by xorshift32 seeded from `random`. About 30x faster than Box–Muller,
 * which matters for BERT-base (110M weights); ample for random test weights.
 */
export function randomNormalArray(random: SeededRandom, length: number, std: number): Float32Array {
  const table = getNormalTable();
  const out = new Float32Array(length);
  let s = Math.floor(random.uniform() * 4294967296) >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = table[(s >>> 16) & 0xffff] * std;
  }
  return out;
}
