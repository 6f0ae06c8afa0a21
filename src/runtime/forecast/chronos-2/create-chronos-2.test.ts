import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ForecastTask } from '../forecast-model.js';
import type { Chronos2Model } from './create-chronos-2.js';
import { loadChronos2 } from './load-chronos-2.js';

// The conformance set's tiny random-weight Chronos-2 checkpoint (see test/conformance/chronos-2.test.ts).
const MODEL = join(process.cwd(), '../shared/conformance/chronos-2/model');
const present = existsSync(join(MODEL, 'model.safetensors'));

const wave = (n: number, phase: number): Float32Array => Float32Array.from({ length: n }, (_, t) => Math.sin(t / 3 + phase) * 5 + t / 10);
/** Tasks of 1 to 3 rows: a lone target, a target with a past-only covariate, two targets with a known-future one. */
const tasks = (horizon: number): ForecastTask[] => [
  { targets: [wave(40, 0)], pastCovariates: [], futureCovariates: [] },
  { targets: [wave(25, 1)], pastCovariates: [wave(25, 2)], futureCovariates: [] },
  { targets: [wave(33, 3), wave(33, 4)], pastCovariates: [], futureCovariates: [{ history: wave(33, 5), future: wave(horizon, 6) }] },
];

let root: string;
let whole: Chronos2Model;
let pieces: Chronos2Model;
beforeAll(async () => {
  if (!present) {
    return;
  }
  root = mkdtempSync(join(tmpdir(), 'inferkit-c2-pieces-'));
  whole = await loadChronos2(MODEL, { cacheDir: root });
  pieces = await loadChronos2(MODEL, { cacheDir: root, runRows: 1 });
}, 120_000);
afterAll(async () => {
  await whole?.dispose();
  await pieces?.dispose();
  if (root) {
    rmSync(root, { recursive: true, force: true });
  }
});

describe.skipIf(!present)('createChronos2', () => {
  it('answers as one run does when a call runs in pieces of whole tasks (runRows), within the native horizon and unrolled past it', async () => {
    for (const horizon of [3, whole.nativeHorizon + 5]) {
      const a = await whole.predictTasks(tasks(horizon), horizon);
      const [b, again] = [await pieces.predictTasks(tasks(horizon), horizon), await pieces.predictTasks(tasks(horizon), horizon)];
      expect(b.values).toHaveLength(4);
      // Runs of other row counts take other ONNX kernel blockings: equal to ~1e-6 relative, not bit for bit.
      const scale = Math.max(...a.values.flatMap((v) => Array.from(v, Math.abs)));
      b.values.forEach((v, i) => v.forEach((x, j) => expect(Math.abs(x - a.values[i][j])).toBeLessThan(1e-4 * scale)));
      // Pieces handed over ahead (two at once) collect in order: the same call answers the same bits.
      expect(again.values.map((v) => Array.from(v))).toEqual(b.values.map((v) => Array.from(v)));
    }
  });

  it('stops a call in pieces at an aborted signal, and says model_not_ready once disposed', async () => {
    const controller = new AbortController();
    controller.abort(new Error('caller left'));
    await expect(pieces.predictTasks(tasks(3), 3, { signal: controller.signal })).rejects.toThrow('caller left');
    const spare = await loadChronos2(MODEL, { cacheDir: root });
    await spare.dispose();
    await expect(spare.predict([wave(10, 0)], 3)).rejects.toMatchObject({ code: 'model_not_ready' });
    expect(spare.sharesRunQueue).toBe(false);
    // Where its graph came from: built from the checkpoint by the first load, reused from the cache by this one.
    expect(whole.graph).toMatchObject({ from: 'checkpoint', file: 'model.safetensors', family: 'chronos-2', variant: 'fp32' });
    expect(spare.graph).toMatchObject({ file: 'model.safetensors', cached: true, buildMs: 0 });
  });
});
