import { attr, type OnnxGraphBuilder } from '../../../onnx/graph-builder.js';

// The additive key mask transformers uses for fp32 (torch.finfo(float32).min).
const MASKED = -3.4028234663852886e38;

/** What a built encoder reads from its `attention_mask` input (see {@link segmentInputs}). */
export interface SegmentInputs {
  /** float32 `[batch, seq]`: 1 at a token, 0 at padding. */
  keep: string;
  /** float32 `[batch, 1, seq, seq]`: 0 where token i may attend to token j (same segment, j not padding), else fp32's minimum. */
  mask: string;
  /** int64 `[batch, seq]`: each token's position inside its own segment (0 at its first token). */
  positions: string;
}

/**
 * A built encoder's `attention_mask` read as segment numbers (inferkit's packed runs: several texts in one row, the
 * first numbered 1, the next 2, …, padding 0). A 0/1 mask is the usual one: one text per row, right-padded. Tokens
 * attend only inside their own segment and positions restart at each segment's first token, so a packed text gets
 * the logits it gets alone (to float rounding) without padding it to the run's longest text. The one difference from
 * transformers' reading of a 0/1 mask: a 0 inside a row (never written by inferkit) restarts positions after it.
 */
export function segmentInputs(g: OnnxGraphBuilder, attentionMask: string): SegmentInputs {
  const real = g.op('Greater', [attentionMask, g.int64Vector([0])]);
  const keep = g.op('Cast', [real], { to: attr.int(1) });
  const same = g.op('Equal', [g.op('Unsqueeze', [attentionMask, g.int64Vector([2])]), g.op('Unsqueeze', [attentionMask, g.int64Vector([1])])]);
  const allowed = g.op('And', [same, g.op('Unsqueeze', [real, g.int64Vector([1])])]);
  const mask = g.op('Unsqueeze', [g.op('Where', [allowed, g.floatScalar(0), g.floatScalar(MASKED)]), g.int64Vector([1])]);
  // Position of token i = the tokens before it in its segment: Σ_j [same(i, j) ∧ j < i].
  const seqLen = g.op('Squeeze', [g.op('Shape', [attentionMask], { start: attr.int(1), end: attr.int(2) }), g.int64Vector([0])]);
  const index = g.op('Range', [g.int64('segment_range_start', [0], []), seqLen, g.int64('segment_range_step', [1], [])]);
  const before = g.op('Less', [g.op('Unsqueeze', [index, g.int64Vector([0])]), g.op('Unsqueeze', [index, g.int64Vector([1])])]);
  const counted = g.op('Cast', [g.op('And', [same, before])], { to: attr.int(7) });
  const positions = g.op('ReduceSum', [counted, g.int64Vector([2])], { keepdims: attr.int(0) });
  return { keep, mask, positions };
}
