import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, type OrtFeeds, type OrtSession } from '../ort.js';
import { loadTokenClassifier } from './load-token-classifier.js';
import { PACKED_ROW_TOKENS, packedRows, runTokenLogits, type BatchPlan } from './run-token-logits.js';

// Graphs built from a checkpoint read attention_mask as segment numbers: a run's texts are packed several to a
// row instead of padded to the longest. Each family's conformance checkpoint, built and run for real: the packed
// run gives every text the logits it gets alone.
const SETS = join(process.cwd(), '../shared/conformance');
const FAMILIES = [
  ['bert', 'kserve-hf'],
  ['distilbert', 'kserve-hf-distilbert'],
  ['roberta', 'kserve-hf-roberta'],
  ['xlm-roberta', 'kserve-hf-xlmr'],
  ['deberta-v2', 'kserve-hf-deberta-v3'],
] as const;
let cache: string;

beforeAll(() => {
  cache = mkdtempSync(join(tmpdir(), 'inferkit-packed-'));
});
afterAll(() => rmSync(cache, { recursive: true, force: true }));

/** Token id sequences of mixed lengths (one longer than a packed row), ids inside the vocabulary, CLS/SEP-like ends. */
function sequences(vocab: number): number[][] {
  const lengths = [7, 23, 3, 15, 140, 9, 31, 12, 2, 18];
  return lengths.map((n, k) => Array.from({ length: n }, (_, i) => (i === 0 ? 0 : i === n - 1 ? 2 : 5 + ((k * 131 + i * 17) % (vocab - 5)))));
}

/** A real session that notes the shape of each run's feeds and the highest segment number in its mask. */
function recording(session: OrtSession): { session: OrtSession; runs: Array<{ dims: readonly number[]; segments: number }> } {
  const runs: Array<{ dims: readonly number[]; segments: number }> = [];
  const wrapped = Object.create(session) as OrtSession;
  wrapped.run = (feeds: OrtFeeds) => {
    const mask = feeds.attention_mask;
    runs.push({ dims: mask.dims, segments: Number((mask.data as BigInt64Array).reduce((a, b) => (b > a ? b : a), 0n)) });
    return session.run(feeds);
  };
  return { session: wrapped, runs };
}

describe('packed runs on graphs built from a checkpoint', () => {
  for (const [family, set] of FAMILIES) {
    it(`${family}: texts packed into rows get the logits they get one per row`, async () => {
      const dir = join(SETS, set, 'model');
      const classifier = await loadTokenClassifier(dir, { graphSource: 'checkpoint', cacheDir: cache });
      const vocab = (JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { vocab_size: number }).vocab_size;
      const session = await createSession(classifier.info.modelFile);
      try {
        expect(classifier.info.packsTexts).toBe(true);
        const seqs = sequences(vocab);
        const inputNames = session.inputNames;
        const plan: BatchPlan = {
          maxBatchSize: 16,
          sortByLength: false,
          padId: 1,
          tokenTypeIds: inputNames.includes('token_type_ids'),
          inputIdsName: 'input_ids',
          attentionMaskName: 'attention_mask',
          tokenTypeIdsName: 'token_type_ids',
          logitsName: 'logits',
          numLabels: classifier.info.labels.length,
          packsTexts: true,
        };
        const packed = recording(session);
        const together = await runTokenLogits(packed.session, seqs, plan);
        // One run of 2 rows of at most 140 tokens (the longest text): that text alone, the 9 others (120 tokens) in one.
        expect(packed.runs).toEqual([{ dims: [2, 140], segments: 9 }]);
        for (const [i, seq] of seqs.entries()) {
          const [alone] = await runTokenLogits(session, [seq], { ...plan, packsTexts: false });
          expect(together[i].length).toBe(seq.length * plan.numLabels);
          let worst = 0;
          alone.forEach((v, k) => (worst = Math.max(worst, Math.abs(v - together[i][k]))));
          expect(worst, `text ${i} (${seq.length} tokens)`).toBeLessThan(1e-4);
        }
      } finally {
        await session.release();
        await classifier.dispose();
      }
    });
  }

  it('keeps published ONNX graphs padded (their mask is 0/1)', async () => {
    const classifier = await loadTokenClassifier(join(SETS, 'kserve-hf', 'model'), { cacheDir: cache });
    try {
      expect(classifier.info.graph).toEqual({ from: 'onnx', file: 'onnx/model.onnx', buildMs: 0 });
      expect(classifier.info.packsTexts).toBe(false);
    } finally {
      await classifier.dispose();
    }
  });

  it('packs into rows of about PACKED_ROW_TOKENS (or the longest text), each text to the emptiest row', () => {
    const seq = (n: number): number[] => new Array<number>(n).fill(7);
    const layout = packedRows([seq(100), seq(60), seq(40), seq(200), seq(28)]);
    // 428 tokens in rows of 200 (the longest text): 2 rows. 200 | 100, 60, 40 | then 28 to the first of two equal rows.
    expect(layout.rows).toBe(2);
    expect(layout.width).toBe(228);
    expect(layout.places).toEqual([{ row: 1, start: 0 }, { row: 1, start: 100 }, { row: 1, start: 160 }, { row: 0, start: 0 }, { row: 0, start: 200 }]);
    // 140 small tokens stay one row (1.1 rows round to 1); 200 make two rows of 100.
    expect(packedRows(new Array(10).fill(seq(14))).rows).toBe(1);
    expect(packedRows(new Array(10).fill(seq(20)))).toMatchObject({ rows: 2, width: 100 });
    const small = packedRows([seq(10), seq(20), seq(30)]);
    expect(small).toEqual({ rows: 1, width: 60, places: [{ row: 0, start: 50 }, { row: 0, start: 30 }, { row: 0, start: 0 }] });
    expect(PACKED_ROW_TOKENS).toBe(128);
  });
});
