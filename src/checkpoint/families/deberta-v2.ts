import { z } from 'zod';
import { InferkitError } from '../../errors.js';
import { OnnxGraphBuilder, attr } from '../../onnx/graph-builder.js';
import type { BuildOptions, GraphBuilderEntry } from '../builders.js';
import type { Checkpoint } from '../safetensors.js';
import { disentangledAttention, type RelativeContext } from './deberta-v2/disentangled-attention.js';
import { relativeIndexTables } from './deberta-v2/relative-positions.js';
import { activation, checkedShape, layerNorm, linear, weight, weightRow, type CheckpointOps } from './encoder/checkpoint-ops.js';
import { encoderConfig, labelsOf, modelPrefix } from './encoder/encoder-config.js';
import { segmentInputs } from './encoder/segments.js';

/** The `config.json` fields of `DebertaV2ForTokenClassification` (DeBERTa-v2 and v3), with transformers' defaults. */
const DebertaV2ConfigSchema = z.looseObject({
  hidden_size: z.number().int().positive(),
  num_hidden_layers: z.number().int().nonnegative(),
  num_attention_heads: z.number().int().positive(),
  intermediate_size: z.number().int().positive(),
  vocab_size: z.number().int().positive(),
  max_position_embeddings: z.number().int().positive().default(512),
  type_vocab_size: z.number().int().nonnegative().default(0),
  layer_norm_eps: z.number().positive().default(1e-7),
  hidden_act: z.string().default('gelu'),
  embedding_size: z.number().int().positive().nullable().optional(),
  position_biased_input: z.boolean().default(true),
  relative_attention: z.boolean().default(false),
  max_relative_positions: z.number().int().default(-1),
  position_buckets: z.number().int().default(-1),
  pos_att_type: z.union([z.array(z.string()), z.string()]).nullable().default(null),
  norm_rel_ebd: z.string().default('none'),
  share_att_key: z.boolean().default(false),
  conv_kernel_size: z.number().int().nonnegative().default(0),
});

type DebertaV2Config = z.output<typeof DebertaV2ConfigSchema>;

/** `pos_att_type` as a list (`"p2c|c2p"` strings too); an unknown term fails naming it. */
function positionTerms(c: DebertaV2Config, source: string): { c2p: boolean; p2c: boolean } {
  const raw = c.pos_att_type ?? [];
  const terms = (Array.isArray(raw) ? raw : raw.split('|')).map((t) => t.trim().toLowerCase()).filter((t) => t !== '');
  const unknown = terms.find((t) => t !== 'c2p' && t !== 'p2c');
  if (unknown !== undefined) {
    throw new InferkitError('model_load_failed', `${source}: pos_att_type ${JSON.stringify(unknown)} is not built (c2p, p2c)`, { param: 'pos_att_type' });
  }
  return { c2p: terms.includes('c2p'), p2c: terms.includes('p2c') };
}

/** Configs this builder refuses, each naming the field. */
function checkBuildable(c: DebertaV2Config, source: string): void {
  const refuse = (param: string, why: string): never => {
    throw new InferkitError('model_load_failed', `${source}: ${why}`, { param });
  };
  if (c.hidden_size % c.num_attention_heads !== 0) {
    refuse('num_attention_heads', `hidden_size ${c.hidden_size} is not a multiple of num_attention_heads ${c.num_attention_heads}`);
  }
  if (c.embedding_size != null && c.embedding_size !== c.hidden_size) {
    refuse('embedding_size', `embedding_size ${c.embedding_size} ≠ hidden_size ${c.hidden_size} (embed_proj) is not built`);
  }
  if (c.conv_kernel_size > 0) {
    refuse('conv_kernel_size', `conv_kernel_size ${c.conv_kernel_size} (DeBERTa-v2's ConvLayer) is not built`);
  }
  const norms = c.norm_rel_ebd.toLowerCase().split('|').map((s) => s.trim());
  if (norms.some((n) => n !== 'none' && n !== 'layer_norm')) {
    refuse('norm_rel_ebd', `norm_rel_ebd ${JSON.stringify(c.norm_rel_ebd)} is not built (none, layer_norm)`);
  }
}

/**
 * The graph of `DebertaV2ForTokenClassification`: int64 `input_ids`, `attention_mask` (and `token_type_ids` with
 * 2+ token types) `[batch, sequence]` → `logits` `[batch, sequence, labels]`; `attention_mask` may pack several texts
 * in a row (segment numbers: positions, absolute and relative, count inside each text; see segmentInputs). Embeddings (absolute positions only
 * with `position_biased_input`), LayerNorm, zeroed at padding; layers of disentangled attention (see
 * disentangledAttention) sharing the normalised relative embeddings; the token classifier.
 */
export function buildDebertaV2TokenClassifier(ck: Checkpoint, int8: boolean): OnnxGraphBuilder {
  const source = ck.dir;
  const c = encoderConfig(ck, DebertaV2ConfigSchema);
  checkBuildable(c, source);
  const p = modelPrefix(ck, ['deberta']);
  const { hidden_size: hidden, num_attention_heads: heads, layer_norm_eps: eps } = c;
  const numLabels = labelsOf(ck, 'classifier.weight', hidden);
  const g = new OnnxGraphBuilder({ name: 'token_classifier', producerName: 'inferkit-checkpoint' });
  const ops: CheckpointOps = { g, ck, int8 };
  const ids = g.input('input_ids', 'int64', ['batch', 'sequence']);
  const maskIn = g.input('attention_mask', 'int64', ['batch', 'sequence']);
  const { keep, mask, positions } = segmentInputs(g, maskIn);
  let x = embeddings(ops, c, p, ids, keep, positions);
  const relative = c.relative_attention ? relativeContext(ops, c, p, ids, positions) : undefined;
  for (let i = 0; i < c.num_hidden_layers; i++) {
    const l = `${p}encoder.layer.${i}.`;
    const shared = c.share_att_key;
    const names = {
      query: `${l}attention.self.query_proj`,
      key: `${l}attention.self.key_proj`,
      value: `${l}attention.self.value_proj`,
      ...(shared ? {} : { posQuery: `${l}attention.self.pos_query_proj`, posKey: `${l}attention.self.pos_key_proj` }),
    };
    const context = disentangledAttention(ops, x, mask, names, { hidden, heads }, relative);
    const attention = linear(ops, context, `${l}attention.output.dense`, hidden, hidden);
    x = layerNorm(ops, g.op('Add', [attention, x]), `${l}attention.output.LayerNorm`, hidden, eps);
    const up = activation(g, linear(ops, x, `${l}intermediate.dense`, hidden, c.intermediate_size), c.hidden_act, source);
    const down = linear(ops, up, `${l}output.dense`, c.intermediate_size, hidden);
    x = layerNorm(ops, g.op('Add', [down, x]), `${l}output.LayerNorm`, hidden, eps);
  }
  const logits = linear(ops, x, 'classifier', hidden, numLabels);
  g.op('Identity', [logits], {}, 'logits');
  g.output('logits', 'float32', ['batch', 'sequence', numLabels]);
  return g;
}

function embeddings(ops: CheckpointOps, c: DebertaV2Config, p: string, ids: string, keep: string, positions: string): string {
  const { g, ck } = ops;
  const h = c.hidden_size;
  let sum = g.op('Gather', [weight(ops, `${p}embeddings.word_embeddings.weight`, [c.vocab_size, h]), ids], { axis: attr.int(0) });
  if (c.position_biased_input) {
    const table = weight(ops, `${p}embeddings.position_embeddings.weight`, [c.max_position_embeddings, h]);
    // Padding of a packed row longer than the table counts past it: read clamped (its logits are dropped).
    const index = g.op('Min', [positions, g.int64Vector([c.max_position_embeddings - 1])]);
    sum = g.op('Add', [sum, g.op('Gather', [table, index], { axis: attr.int(0) })]);
  }
  const typeName = `${p}embeddings.token_type_embeddings.weight`;
  if (c.type_vocab_size > 1) {
    const typeIds = g.input('token_type_ids', 'int64', ['batch', 'sequence']);
    sum = g.op('Add', [sum, g.op('Gather', [weight(ops, typeName, [c.type_vocab_size, h]), typeIds], { axis: attr.int(0) })]);
  } else if (c.type_vocab_size === 1) {
    checkedShape(ck, typeName, [1, h]);
    sum = g.op('Add', [sum, weightRow(ops, typeName, 1, h, 0)]);
  }
  const normed = layerNorm(ops, sum, `${p}embeddings.LayerNorm`, h, c.layer_norm_eps);
  return g.op('Mul', [normed, g.op('Unsqueeze', [keep, g.int64Vector([2])])]);
}

/**
 * The relative embeddings (first 2·span rows, LayerNorm-ed with `norm_rel_ebd`) and the `[batch, seq, seq]` row indices,
 * from each token's position inside its segment (`positions`, int64 `[batch, seq]`).
 */
function relativeContext(ops: CheckpointOps, c: DebertaV2Config, p: string, ids: string, positions: string): RelativeContext {
  const { g, ck } = ops;
  const terms = positionTerms(c, ck.dir);
  const maxRelative = c.max_relative_positions < 1 ? c.max_position_embeddings : c.max_relative_positions;
  const span = c.position_buckets > 0 ? c.position_buckets : maxRelative;
  const name = `${p}encoder.rel_embeddings.weight`;
  const rows = ck.info(name).shape[0];
  if (rows < 2 * span) {
    throw new InferkitError('model_load_failed', `${ck.dir}: tensor ${name} has ${rows} rows, the config's relative span asks for ${2 * span}`, { param: name });
  }
  const table = weight(ops, name, [rows, c.hidden_size]);
  let rel = rows === 2 * span ? table : g.op('Slice', [table, g.int64Vector([0]), g.int64Vector([2 * span]), g.int64Vector([0])]);
  if (c.norm_rel_ebd.toLowerCase().includes('layer_norm')) {
    rel = layerNorm(ops, rel, `${p}encoder.LayerNorm`, c.hidden_size, c.layer_norm_eps);
  }
  const maxLength = c.max_position_embeddings;
  const tables = relativeIndexTables(maxLength, span, c.position_buckets, maxRelative);
  const seqLen1d = g.op('Shape', [ids], { start: attr.int(1), end: attr.int(2) });
  // δ = i − j from the positions inside each segment, as table rows (δ + maxLength − 1). Pairs across segments are
  // masked; a packed row longer than maxLength clamps them into the table.
  const last = maxLength - 1;
  const delta = g.op('Sub', [g.op('Unsqueeze', [positions, g.int64Vector([2])]), g.op('Unsqueeze', [positions, g.int64Vector([1])])]);
  const shifted = g.op('Max', [g.op('Min', [g.op('Add', [delta, g.int64Vector([last])]), g.int64Vector([2 * last])]), g.int64Vector([0])]);
  const c2pTable = g.int64('relative_c2p_rows', tables.c2p, [tables.c2p.length]);
  const p2cTable = g.int64('relative_p2c_rows', tables.p2c, [tables.p2c.length]);
  // The rows a row this long reads (both tables are monotone in δ, |δ| < min(seq, maxLength)): [lo, hi) of the 2·span rows.
  const reach = g.op('Min', [seqLen1d, g.int64Vector([maxLength])]);
  const firstDelta = g.op('Sub', [g.int64Vector([maxLength]), reach]); // δ = −(reach − 1)
  const lastDelta = g.op('Add', [reach, g.int64Vector([maxLength - 2])]); // δ = reach − 1
  const at = (table: string, index: string): string => g.op('Gather', [table, index], { axis: attr.int(0) });
  const lo = g.op('Min', [at(c2pTable, firstDelta), at(p2cTable, lastDelta)]);
  const hi = g.op('Add', [g.op('Max', [at(c2pTable, lastDelta), at(p2cTable, firstDelta)]), g.int64Vector([1])]);
  // Expanded to [batch, heads, seq, seq] once for every layer's GatherElements.
  const batch1d = g.op('Shape', [ids], { start: attr.int(0), end: attr.int(1) });
  const scoreShape = g.op('Concat', [batch1d, g.int64Vector([c.num_attention_heads]), seqLen1d, seqLen1d], { axis: attr.int(0) });
  const index = (table: string): string => g.op('Expand', [g.op('Unsqueeze', [g.op('Sub', [at(table, shifted), lo]), g.int64Vector([1])]), scoreShape]);
  return { ...terms, rel, span, window: { lo, hi }, c2pIndex: index(c2pTable), p2cIndex: index(p2cTable) };
}

/** `DebertaV2ForTokenClassification` (DeBERTa-v2 and v3); int8 as the other encoders. */
export const DEBERTA_V2_BUILDER: GraphBuilderEntry = {
  version: 5,
  variants: ['int8'],
  packsTexts: true,
  build: (ck: Checkpoint, options: BuildOptions): OnnxGraphBuilder => buildDebertaV2TokenClassifier(ck, options.variant === 'int8'),
};
