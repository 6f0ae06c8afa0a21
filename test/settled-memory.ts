import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type ProcessMemory, processMemory } from '../src/runtime/shared-weights/process-memory.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * The test process's memory once its garbage is gone: a full GC, then at most 3 s until RSS moves by under 2 MiB in
 * 200 ms. A memory test reads a growth between two of these. Without it, a baseline taken after writing a 225 MiB
 * graph held 0.24–0.46 GB of garbage (1–2× the weights), and the growth read low by whatever V8 freed mid-test: one CI
 * run read a pool's PSS growth as -0.25× its weights (test/integration/server-memory.test.ts).
 */
export async function settledMemory(): Promise<ProcessMemory> {
  let last = processMemory();
  for (let i = 0; i < 15; i++) {
    gc();
    await sleep(200);
    const now = processMemory();
    if (Math.abs(now.rssBytes - last.rssBytes) < 2 * 2 ** 20) {
      return now;
    }
    last = now;
  }
  return last;
}
