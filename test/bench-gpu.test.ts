import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCheckpoint } from '../src/checkpoint/safetensors.js';
import { chronos2Tensors } from '../bench/gpu/checkpoints.js';
import { robertaTensors } from '../bench/lib/roberta-checkpoint.js';
import { BUILT_FAMILIES } from '../bench/gpu/families.js';
import { measureModel, outputDiff } from '../bench/gpu/measure.js';
import { parsePlan } from '../bench/gpu/threads.js';

const CONFORMANCE = join(process.cwd(), '../shared/conformance');

/** Tensor name → shape of a safetensors checkpoint. */
async function layout(dir: string): Promise<Record<string, number[]>> {
  const ck = await openCheckpoint(dir);
  try {
    return Object.fromEntries(ck.names().map((n) => [n, [...ck.info(n).shape]]));
  } finally {
    ck.close();
  }
}

describe('gpu-bench outputDiff', () => {
  it('reports the largest |difference| over every output and that over the largest |reference|', () => {
    const d = outputDiff([Float32Array.of(100, -200), Float32Array.of(1)], [Float32Array.of(100.5, -200), Float32Array.of(1.25)]);
    expect(d.maxAbs).toBeCloseTo(0.5, 6);
    expect(d.rel).toBeCloseTo(0.5 / 200, 9);
  });
  it('is NaN when the two disagree on a non-finite value or a length, and ignores NaN where both have it', () => {
    expect(outputDiff([Float32Array.of(1, NaN)], [Float32Array.of(1, 2)]).maxAbs).toBeNaN();
    expect(outputDiff([Float32Array.of(1, 2)], [Float32Array.of(1)]).rel).toBeNaN();
    expect(outputDiff([Float32Array.of(4, NaN)], [Float32Array.of(3, NaN)])).toEqual({ maxAbs: 1, rel: 0.25 });
  });
});

describe('gpu-bench checkpoint generators', () => {
  it('write the tensor layout of the real checkpoints (the conformance Chronos-2 and XLM-R files, same sizes)', async () => {
    const c2 = await layout(join(CONFORMANCE, 'chronos-2', 'model'));
    expect(Object.fromEntries(chronos2Tensors({ dModel: 64, layers: 2, heads: 4, dFF: 256, contextLength: 512 }).map(([n, s]) => [n, s]))).toEqual(c2);
    const xlmr = await layout(join(CONFORMANCE, 'kserve-hf-xlmr', 'model'));
    const ours = Object.fromEntries(robertaTensors(3000, 2).map(([n, s]) => [n, s]));
    expect(Object.keys(ours).sort()).toEqual(Object.keys(xlmr).sort());
    expect(ours['roberta.embeddings.position_embeddings.weight']).toEqual([514, 768]);
    expect(ours['roberta.embeddings.word_embeddings.weight']).toEqual([3000, 768]);
  });

  it('a rehearsal-sized family is generated, built and measured on the CPU with its own feeds', async () => {
    const root = await mkdtemp(join(tmpdir(), 'inferkit-gpu-bench-test-'));
    try {
      const fam = BUILT_FAMILIES.find((f) => f.key === 'chronos-2');
      if (fam === undefined) {
        throw new Error('no chronos-2 family');
      }
      const p = await fam.prepare(root, true);
      expect(p.graphPath).toMatch(/chronos-2/);
      const rows = await measureModel({ name: p.name, bytes: p.graphPath, feeds: (b) => fam.feeds(b, true), batches: [1, 3], unit: fam.unit }, { providers: ['cpu', 'no-such-provider'], runBudgetMs: 0, log: () => undefined });
      const timed = rows.filter((r) => r.provider === 'cpu' && r.batch > 0);
      expect(timed.map((r) => r.batch)).toEqual([1, 3]);
      expect(timed.every((r) => r.ms !== null && r.ms > 0 && r.speedup === 1)).toBe(true);
      const failed = rows.filter((r) => r.provider === 'no-such-provider');
      expect(failed).toHaveLength(1);
      expect(failed[0].error).toBeTruthy();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);

  it('the WordPiece families (DistilBERT without token types, ELECTRA, BERT int8) build at rehearsal size and run with the shared token feeds', async () => {
    const root = await mkdtemp(join(tmpdir(), 'inferkit-gpu-bench-test-'));
    try {
      for (const key of ['distilbert', 'electra', 'bert-int8']) {
        const fam = BUILT_FAMILIES.find((f) => f.key === key);
        if (fam === undefined) {
          throw new Error(`no ${key} family`);
        }
        const p = await fam.prepare(root, true);
        const rows = await measureModel({ name: p.name, bytes: p.graphPath, feeds: (b) => fam.feeds(b, true), batches: [2], unit: fam.unit }, { providers: ['cpu'], runBudgetMs: 0, log: () => undefined });
        expect(rows.find((r) => r.batch === 2)?.ms, key).toBeGreaterThan(0);
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('gpu-bench --threads plans', () => {
  it('reads SESSIONSxTHREADS, u for unpacked (mapped) sessions, @N for texts per run, and names a bad plan', () => {
    expect(parsePlan('4x4')).toEqual([4, 4, false, 8]);
    expect(parsePlan('16x1u@2')).toEqual([16, 1, true, 2]);
    expect(() => parsePlan('4by4')).toThrow(/--plans 4by4: expected SESSIONSxTHREADS/);
  });
});

