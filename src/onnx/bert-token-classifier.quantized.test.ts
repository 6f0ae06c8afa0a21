import { describe, expect, it } from 'vitest';
import { createSession, int64Tensor } from '../runtime/ort.js';
import { buildBertTokenClassifier } from './bert-token-classifier.js';

describe('buildBertTokenClassifier quantize', () => {
  it('writes a dynamically int8-quantized graph (MatMulInteger) whose logits track the float graph of the same seed', async () => {
    const opts = { vocabSize: 200, layers: 2, hidden: 64, heads: 4, seed: 3, initStd: 0.2 };
    const fp32 = await createSession(buildBertTokenClassifier(opts));
    const int8Bytes = buildBertTokenClassifier({ ...opts, quantize: true });
    expect(Buffer.from(int8Bytes).includes(Buffer.from('MatMulInteger'))).toBe(true);
    const int8 = await createSession(int8Bytes);
    try {
      const [batch, width] = [3, 11];
      const feeds = () => ({
        input_ids: int64Tensor(BigInt64Array.from({ length: batch * width }, (_, i) => BigInt(1 + ((i * 37) % 199))), [batch, width]),
        attention_mask: int64Tensor(new BigInt64Array(batch * width).fill(1n), [batch, width]),
        token_type_ids: int64Tensor(new BigInt64Array(batch * width), [batch, width]),
      });
      const a = (await fp32.run(feeds())).logits.data as Float32Array;
      const b = (await int8.run(feeds())).logits.data as Float32Array;
      expect(b.length).toBe(a.length);
      let diff = 0;
      let scale = 0;
      for (let i = 0; i < a.length; i++) {
        diff = Math.max(diff, Math.abs(a[i] - b[i]));
        scale = Math.max(scale, Math.abs(a[i]));
      }
      // int8 rounding error: small next to the logits' own range, never zero (it really is quantized).
      expect(diff).toBeGreaterThan(0);
      expect(diff).toBeLessThan(0.2 * scale);
    } finally {
      await fp32.release();
      await int8.release();
    }
  });
});
