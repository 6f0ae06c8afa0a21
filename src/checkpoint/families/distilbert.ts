import { z } from 'zod';
import { InferkitError } from '../../errors.js';
import type { OnnxGraphBuilder } from '../../onnx/graph-builder.js';
import type { BuildOptions, GraphBuilderEntry } from '../builders.js';
import type { Checkpoint } from '../safetensors.js';
import { checkedShape } from './encoder/checkpoint-ops.js';
import { buildEncoderTokenClassifier, type EncoderSpec } from './encoder/encoder-graph.js';
import { encoderConfig, labelsOf, modelPrefix } from './encoder/encoder-config.js';

/** DistilBERT's `config.json` fields (its own names: `dim`, `n_layers`, `n_heads`, `hidden_dim`). */
const DistilBertConfigSchema = z.looseObject({
  dim: z.number().int().positive(),
  n_layers: z.number().int().nonnegative(),
  n_heads: z.number().int().positive(),
  hidden_dim: z.number().int().positive(),
  vocab_size: z.number().int().positive(),
  max_position_embeddings: z.number().int().positive(),
  activation: z.string().default('gelu'),
  sinusoidal_pos_embds: z.boolean().default(false),
});

// DistilBERT's LayerNorm epsilon is fixed in its code, not in config.json.
const DISTILBERT_EPS = 1e-12;

/** The spec of a `DistilBertForTokenClassification` checkpoint (no token types, positions 0..T-1). */
export function distilBertSpec(ck: Checkpoint): EncoderSpec {
  const c = encoderConfig(ck, DistilBertConfigSchema);
  if (c.dim % c.n_heads !== 0) {
    throw new InferkitError('model_load_failed', `${ck.dir}: dim ${c.dim} is not a multiple of n_heads ${c.n_heads}`, { param: 'n_heads' });
  }
  // Sinusoidal tables are stored in the checkpoint as position_embeddings too, so both read the same tensor.
  const p = modelPrefix(ck, ['distilbert']);
  const spec: EncoderSpec = {
    source: ck.dir,
    layers: c.n_layers,
    hidden: c.dim,
    heads: c.n_heads,
    intermediate: c.hidden_dim,
    epsilon: DISTILBERT_EPS,
    activation: c.activation,
    vocabSize: c.vocab_size,
    embeddingSize: c.dim,
    word: `${p}embeddings.word_embeddings.weight`,
    position: `${p}embeddings.position_embeddings.weight`,
    maxPositions: c.max_position_embeddings,
    positions: { kind: 'absolute' },
    embeddingNorm: `${p}embeddings.LayerNorm`,
    layer: (i) => {
      const l = `${p}transformer.layer.${i}.`;
      return {
        query: `${l}attention.q_lin`,
        key: `${l}attention.k_lin`,
        value: `${l}attention.v_lin`,
        attentionOutput: `${l}attention.out_lin`,
        attentionNorm: `${l}sa_layer_norm`,
        up: `${l}ffn.lin1`,
        down: `${l}ffn.lin2`,
        outputNorm: `${l}output_layer_norm`,
      };
    },
    classifier: 'classifier',
    numLabels: labelsOf(ck, 'classifier.weight', c.dim),
  };
  checkedShape(ck, spec.word, [c.vocab_size, c.dim]);
  return spec;
}

/** `DistilBertForTokenClassification`. */
export const DISTILBERT_BUILDER: GraphBuilderEntry = {
  version: 3,
  variants: ['int8'],
  packsTexts: true,
  build: (ck: Checkpoint, options: BuildOptions): OnnxGraphBuilder => buildEncoderTokenClassifier(ck, distilBertSpec(ck), options.variant === 'int8'),
};
