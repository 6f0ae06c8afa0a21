import { attr, type OnnxGraphBuilder } from './graph-builder.js';

/**
 * Splits the last axis of `x` into `sizes`, in two levels when there are more than 8 parts: WebGPU kernels bind
 * every output as a storage buffer and a shader stage has 16 (a 12-layer decoder's fused cross-attention K/V
 * split into 24 parts failed there; docs/gpu.md). One Gemm still computes every layer's K and V.
 */
export function splitNarrow(g: OnnxGraphBuilder, x: string, sizes: readonly number[], most = 8): string[] {
  const axis = { axis: attr.int(-1) };
  if (sizes.length <= most) {
    return g.node('Split', [x, g.int64Vector(sizes)], axis, sizes.length);
  }
  const groups: number[][] = [];
  for (let i = 0; i < sizes.length; i += most) {
    groups.push(sizes.slice(i, i + most));
  }
  const parts = g.node('Split', [x, g.int64Vector(groups.map((grp) => grp.reduce((a, b) => a + b, 0)))], axis, groups.length);
  return groups.flatMap((grp, i) => (grp.length === 1 ? [parts[i]] : g.node('Split', [parts[i], g.int64Vector(grp)], axis, grp.length)));
}

