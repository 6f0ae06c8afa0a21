import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { architectureOf } from '../src/checkpoint/architectures.js';
import { GRAPH_BUILDERS } from '../src/checkpoint/builders.js';
import { openCheckpoint } from '../src/checkpoint/safetensors.js';
import type { OnnxGraphBuilder } from '../src/onnx/graph-builder.js';

/**
 * What the WebGPU provider needs of a built graph (docs/gpu.md, measured on an H100): no op it has no kernel for
 * in the per-layer path (a variadic `Sum` ran on the CPU and kept DeBERTa-v3-base at 1.0× the CPU), and at most 16
 * tensors per node (a shader stage binds at most 16 storage buffers: a 24-way Split broke Chronos-Bolt-base).
 * Checked on every family's conformance checkpoint.
 */
const ROOT = join(process.cwd(), '../shared/conformance');
const CHECKPOINTS = ['chronos-bolt', 'chronos-2', 'timesfm-2.0', 'timesfm-2.5', 'kserve-hf', 'kserve-hf-distilbert', 'kserve-hf-roberta', 'kserve-hf-xlmr', 'kserve-hf-deberta-v3'];
/** Ops seen falling back to the CPU on WebGPU inside the layers (onnxruntime-node 1.30). */
const NO_WEBGPU_KERNEL = ['Sum'];

interface NodeView {
  opType: string;
  inputs: string[];
  outputs: string[];
}

async function builtNodes(folder: string, variant: string): Promise<NodeView[]> {
  const ck = await openCheckpoint(join(ROOT, folder, 'model'));
  try {
    const family = architectureOf(ck.config, folder).family;
    const entry = GRAPH_BUILDERS[family];
    if (entry === undefined) {
      throw new Error(`no builder for ${family}`);
    }
    const g: OnnxGraphBuilder = await entry.build(ck, { variant });
    // The builder keeps its node list private; this test reads it rather than decoding the protobuf.
    return (g as unknown as { nodes: NodeView[] }).nodes;
  } finally {
    ck.close();
  }
}

describe('built graphs fit the WebGPU provider', () => {
  for (const folder of CHECKPOINTS) {
    it(`${folder}: no op without a WebGPU kernel, at most 16 tensors per node`, async () => {
      const nodes = await builtNodes(folder, 'fp32');
      expect(nodes.length).toBeGreaterThan(10);
      expect(nodes.filter((n) => NO_WEBGPU_KERNEL.includes(n.opType)).map((n) => n.opType)).toEqual([]);
      const wide = nodes.filter((n) => n.inputs.filter((i) => i !== '').length + n.outputs.length > 16).map((n) => `${n.opType} ${n.inputs.length}+${n.outputs.length}`);
      expect(wide).toEqual([]);
    });
  }
});
