import { summarize, type Summary } from './stats.js';

/** Options of {@link measure}. */
export interface MeasureOptions {
  /** Untimed calls first (JIT, ORT arena, caches). @default 1 */
  warmup?: number;
  /** Timed calls. @default 5 */
  runs?: number;
  /** Stop early once this much time was spent on timed calls (at least `minRuns` are made). @default Infinity */
  budgetMs?: number;
  /** Fewest timed calls when `budgetMs` cuts the series short. @default 1 */
  minRuns?: number;
}

/** Milliseconds per call of `fn`: median, min, max over the timed runs (and the raw samples). */
export interface Measurement extends Summary {
  samples: number[];
}

/** Times `fn` after warm-up calls, a bounded number of times, and summarises milliseconds per call. */
export async function measure(fn: () => Promise<unknown> | unknown, options: MeasureOptions = {}): Promise<Measurement> {
  const warmup = options.warmup ?? 1;
  const runs = Math.max(1, options.runs ?? 5);
  const budget = options.budgetMs ?? Infinity;
  const minRuns = Math.max(1, Math.min(runs, options.minRuns ?? 1));
  for (let i = 0; i < warmup; i++) {
    await fn();
  }
  const samples: number[] = [];
  let spent = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    const dt = performance.now() - t0;
    samples.push(dt);
    spent += dt;
    if (spent >= budget && samples.length >= minRuns) {
      break;
    }
  }
  return { ...summarize(samples), samples };
}

/**
 * Interleaves the contenders round by round (A B C, A B C, …) so that drift in machine load
 * (2 shared cores) hits all of them alike; each gets `warmup` untimed calls first.
 */
export async function measureInterleaved<K extends string>(
  contenders: Readonly<Record<K, () => Promise<unknown> | unknown>>,
  options: MeasureOptions = {},
): Promise<Record<K, Measurement>> {
  const keys = Object.keys(contenders) as K[];
  const warmup = options.warmup ?? 1;
  const runs = Math.max(1, options.runs ?? 5);
  const budget = options.budgetMs ?? Infinity;
  const minRuns = Math.max(1, Math.min(runs, options.minRuns ?? 1));
  for (const k of keys) {
    for (let i = 0; i < warmup; i++) {
      await contenders[k]();
    }
  }
  const samples = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  let spent = 0;
  for (let r = 0; r < runs; r++) {
    for (const k of keys) {
      const t0 = performance.now();
      await contenders[k]();
      const dt = performance.now() - t0;
      samples[k].push(dt);
      spent += dt;
    }
    if (spent >= budget && r + 1 >= minRuns) {
      break;
    }
  }
  return Object.fromEntries(keys.map((k) => [k, { ...summarize(samples[k]), samples: samples[k] }])) as Record<K, Measurement>;
}
