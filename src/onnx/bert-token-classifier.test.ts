import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { buildBertTokenClassifier } from './bert-token-classifier.js';

const i64 = (rows: number[][]): ort.Tensor => {
  const width = rows[0].length;
  return new ort.Tensor('int64', BigInt64Array.from(rows.flat(), (v) => BigInt(v)), [rows.length, width]);
};

/** Right-pads token rows with id 0 and builds the three BERT feeds. */
function feeds(rows: number[][]): Record<string, ort.Tensor> {
  const width = Math.max(...rows.map((r) => r.length));
  const pad = (r: number[], v: number): number[] => [...r, ...Array<number>(width - r.length).fill(v)];
  return {
    input_ids: i64(rows.map((r) => pad(r, 0))),
    attention_mask: i64(rows.map((r) => pad(r.map(() => 1), 0))),
    token_type_ids: i64(rows.map((r) => pad(r.map(() => 0), 0))),
  };
}

describe('buildBertTokenClassifier', () => {
  it('with layers 0 and a label table, logits are exactly labelTable[input_id] across a ragged batch', async () => {
    const vocabSize = 12;
    const numLabels = 3;
    const table = Float32Array.from({ length: vocabSize * numLabels }, (_, i) => (i % 7) - 2.5 + i / 64);
    const session = await ort.InferenceSession.create(buildBertTokenClassifier({ vocabSize, numLabels, layers: 0, labelTable: table }));
    expect(session.inputNames).toEqual(['input_ids', 'attention_mask', 'token_type_ids']);
    const rows = [[101 % vocabSize, 3, 7, 11], [5, 2]];
    const { logits } = await session.run(feeds(rows));
    expect(logits.dims).toEqual([2, 4, numLabels]);
    const data = logits.data as Float32Array;
    const padded = [rows[0], [...rows[1], 0, 0]];
    padded.forEach((row, b) =>
      row.forEach((id, s) => {
        const got = Array.from(data.subarray((b * 4 + s) * numLabels, (b * 4 + s + 1) * numLabels));
        expect(got).toEqual(Array.from(table.subarray(id * numLabels, (id + 1) * numLabels)));
      }),
    );
    await session.release();
  });

  it('a random 2-layer encoder masks padding: padded real-token logits equal the unpadded run', async () => {
    const bytes = buildBertTokenClassifier({ vocabSize: 60, layers: 2, hidden: 32, heads: 4, intermediate: 64, numLabels: 5, seed: 42 });
    const session = await ort.InferenceSession.create(bytes);
    const short = [2, 17, 33, 9, 3];
    const alone = (await session.run(feeds([short]))).logits.data as Float32Array;
    const batched = await session.run(feeds([[2, 40, 41, 42, 43, 44, 45, 3], short]));
    expect(batched.logits.dims).toEqual([2, 8, 5]);
    const row1 = (batched.logits.data as Float32Array).subarray(8 * 5, 8 * 5 + short.length * 5);
    expect(alone.every(Number.isFinite)).toBe(true);
    for (let i = 0; i < alone.length; i++) {
      expect(Math.abs(row1[i] - alone[i])).toBeLessThan(1e-5);
    }
    // Without the mask the padding would be attended to and the logits would move.
    const unmasked = feeds([[...short, 0, 0, 0]]);
    unmasked.attention_mask = i64([[1, 1, 1, 1, 1, 1, 1, 1]]);
    const leaked = (await session.run(unmasked)).logits.data as Float32Array;
    const maxDiff = Math.max(...Array.from(alone, (v, i) => Math.abs(v - leaked[i])));
    expect(maxDiff).toBeGreaterThan(1e-4);
    await session.release();
  });

  it('is deterministic per seed and the label table dominates small encoder logits', async () => {
    const table = new Float32Array(20 * 3);
    for (let id = 0; id < 20; id++) {
      table[id * 3 + (id % 3)] = 10;
    }
    const opts = { vocabSize: 20, numLabels: 3, layers: 1, hidden: 16, heads: 2, seed: 7, labelTable: table };
    const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));
    expect(same(buildBertTokenClassifier(opts), buildBertTokenClassifier(opts))).toBe(true);
    expect(same(buildBertTokenClassifier(opts), buildBertTokenClassifier({ ...opts, seed: 8 }))).toBe(false);
    const session = await ort.InferenceSession.create(buildBertTokenClassifier(opts));
    const data = (await session.run(feeds([[4, 5, 6, 7]]))).logits.data as Float32Array;
    const argmax = [0, 1, 2, 3].map((s) => {
      const row = Array.from(data.subarray(s * 3, s * 3 + 3));
      return row.indexOf(Math.max(...row));
    });
    expect(argmax).toEqual([1, 2, 0, 1]);
    await session.release();
  });

  it('rejects inconsistent options', () => {
    expect(() => buildBertTokenClassifier({ vocabSize: 10, hidden: 30, heads: 4 })).toThrow(/multiple of heads/);
    expect(() => buildBertTokenClassifier({ vocabSize: 10, labelTable: new Float32Array(5) })).toThrow(/labelTable/);
    expect(() => buildBertTokenClassifier({ vocabSize: 0 })).toThrow(/vocabSize/);
  });
});
