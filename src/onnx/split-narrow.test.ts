import { describe, expect, it } from 'vitest';
import { createSession, float32Tensor } from '../runtime/ort.js';
import { OnnxGraphBuilder } from './graph-builder.js';
import { splitNarrow } from './split-narrow.js';

describe('splitNarrow', () => {
  it('splits 24 parts in two levels of at most 8 outputs each, with the same slices as one Split', async () => {
    const g = new OnnxGraphBuilder();
    const x = g.input('x', 'float32', [2, 72]);
    const parts = splitNarrow(g, x, Array.from({ length: 24 }, () => 3));
    expect(parts).toHaveLength(24);
    parts.forEach((p) => g.output(p, 'float32', [2, 3]));
    const session = await createSession(g.toBytes());
    const data = Float32Array.from({ length: 144 }, (_, i) => i);
    const out = await session.run({ x: float32Tensor(data, [2, 72]) });
    parts.forEach((p, i) => expect(Array.from(out[p].data as Float32Array)).toEqual([3 * i, 3 * i + 1, 3 * i + 2, 72 + 3 * i, 73 + 3 * i, 74 + 3 * i]));
    await session.release();
  });
});
