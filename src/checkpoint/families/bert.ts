import { z } from 'zod';
import { InferkitError } from '../../errors.js';
import type { OnnxGraphBuilder } from '../../onnx/graph-builder.js';
import type { BuildOptions, GraphBuilderEntry } from '../builders.js';
import type { Checkpoint } from '../safetensors.js';
import { checkedShape } from './encoder/checkpoint-ops.js';
import { buildEncoderTokenClassifier, type EncoderSpec } from './encoder/encoder-graph.js';
import { encoderConfig, labelsOf, modelPrefix } from './encoder/encoder-config.js';

/** The `config.json` fields of BERT-layout encoders (BERT, RoBERTa, XLM-RoBERTa, Electra). */
const BertLayoutConfigSchema = z.looseObject({
  hidden_size: z.number().int().positive(),
  num_hidden_layers: z.number().int().nonnegative(),
  num_attention_heads: z.number().int().positive(),
  intermediate_size: z.number().int().positive(),
  vocab_size: z.number().int().positive(),
  max_position_embeddings: z.number().int().positive(),
  type_vocab_size: z.number().int().nonnegative().default(2),
  layer_norm_eps: z.number().positive().default(1e-12),
  hidden_act: z.string().default('gelu'),
  pad_token_id: z.number().int().nonnegative().nullable().optional(),
  embedding_size: z.number().int().positive().optional(),
  position_embedding_type: z.string().optional(),
});

type Layout = 'bert' | 'roberta' | 'electra';

/** The spec of a BERT-layout checkpoint (`<prefix>.embeddings…`, `<prefix>.encoder.layer.N…`, `classifier`). */
export function bertLayoutSpec(ck: Checkpoint, layout: Layout): EncoderSpec {
  const source = ck.dir;
  const c = encoderConfig(ck, BertLayoutConfigSchema);
  if (c.position_embedding_type !== undefined && c.position_embedding_type !== 'absolute') {
    throw new InferkitError('model_load_failed', `${source}: position_embedding_type ${JSON.stringify(c.position_embedding_type)} is not built (only absolute)`, { param: 'position_embedding_type' });
  }
  if (c.hidden_size % c.num_attention_heads !== 0) {
    throw new InferkitError('model_load_failed', `${source}: hidden_size ${c.hidden_size} is not a multiple of num_attention_heads ${c.num_attention_heads}`, { param: 'num_attention_heads' });
  }
  const p = modelPrefix(ck, ['bert', 'roberta', 'electra', 'xlm_roberta', 'camembert']);
  const embeddingSize = layout === 'electra' ? c.embedding_size ?? c.hidden_size : c.hidden_size;
  const typeName = `${p}embeddings.token_type_embeddings.weight`;
  const padId = c.pad_token_id ?? 1;
  const spec: EncoderSpec = {
    source,
    layers: c.num_hidden_layers,
    hidden: c.hidden_size,
    heads: c.num_attention_heads,
    intermediate: c.intermediate_size,
    epsilon: c.layer_norm_eps,
    activation: c.hidden_act,
    vocabSize: c.vocab_size,
    embeddingSize,
    word: `${p}embeddings.word_embeddings.weight`,
    position: `${p}embeddings.position_embeddings.weight`,
    maxPositions: c.max_position_embeddings,
    positions: layout === 'roberta' ? { kind: 'offset', padId } : { kind: 'absolute' },
    ...(c.type_vocab_size > 0 && ck.has(typeName) ? { tokenType: { name: typeName, rows: c.type_vocab_size } } : {}),
    embeddingNorm: `${p}embeddings.LayerNorm`,
    ...(embeddingSize !== c.hidden_size ? { embeddingProjection: `${p}embeddings_project` } : {}),
    layer: (i) => {
      const l = `${p}encoder.layer.${i}.`;
      return {
        query: `${l}attention.self.query`,
        key: `${l}attention.self.key`,
        value: `${l}attention.self.value`,
        attentionOutput: `${l}attention.output.dense`,
        attentionNorm: `${l}attention.output.LayerNorm`,
        up: `${l}intermediate.dense`,
        down: `${l}output.dense`,
        outputNorm: `${l}output.LayerNorm`,
      };
    },
    classifier: 'classifier',
    numLabels: labelsOf(ck, 'classifier.weight', c.hidden_size),
  };
  checkedShape(ck, spec.word, [c.vocab_size, embeddingSize]);
  return spec;
}

function entry(layout: Layout): GraphBuilderEntry {
  return {
    version: 3,
    variants: ['int8'],
    packsTexts: true,
    build: (ck: Checkpoint, options: BuildOptions): OnnxGraphBuilder => buildEncoderTokenClassifier(ck, bertLayoutSpec(ck, layout), options.variant === 'int8'),
  };
}

/** `BertForTokenClassification`. */
export const BERT_BUILDER = entry('bert');
/** `RobertaForTokenClassification`, `XLMRobertaForTokenClassification` and `CamembertForTokenClassification` (the same network): positions offset by `pad_token_id + 1`. */
export const ROBERTA_BUILDER = entry('roberta');
/** `ElectraForTokenClassification` (the discriminator): BERT's layout, embeddings projected when `embedding_size` differs. */
export const ELECTRA_BUILDER = entry('electra');
