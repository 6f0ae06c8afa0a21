import { writeRandomCheckpoint, type RandomTensor } from './random-checkpoint.js';

/** deberta-v3-base's hidden size. */
export const DEBERTA_HIDDEN = 768;
const HIDDEN = DEBERTA_HIDDEN;
const FFN = 3072;

/** Every tensor of a `DebertaV2ForTokenClassification` checkpoint of deberta-v3-base's width: name → [shape, init (std; 0 = zeros, -1 = ones)]. */
export function debertaTensors(layers: number, vocab: number): [string, number[], number][] {
  const h = HIDDEN;
  const out: [string, number[], number][] = [];
  const lin = (p: string, o: number, i: number): void => void out.push([`${p}.weight`, [o, i], 0.02], [`${p}.bias`, [o], 0]);
  const norm = (p: string): void => void out.push([`${p}.weight`, [h], -1], [`${p}.bias`, [h], 0]);
  out.push(['deberta.embeddings.word_embeddings.weight', [vocab, h], 0.02]);
  norm('deberta.embeddings.LayerNorm');
  out.push(['deberta.encoder.rel_embeddings.weight', [512, h], 0.02]);
  norm('deberta.encoder.LayerNorm');
  for (let i = 0; i < layers; i++) {
    const l = `deberta.encoder.layer.${i}`;
    for (const w of ['query_proj', 'key_proj', 'value_proj']) {
      lin(`${l}.attention.self.${w}`, h, h);
    }
    lin(`${l}.attention.output.dense`, h, h);
    norm(`${l}.attention.output.LayerNorm`);
    lin(`${l}.intermediate.dense`, FFN, h);
    lin(`${l}.output.dense`, h, FFN);
    norm(`${l}.output.LayerNorm`);
  }
  lin('classifier', 9, h);
  return out;
}

/**
 * Writes (once; reused when `dir` is complete) a random deberta-v3-shaped checkpoint with `layers` and `vocab`
 * (184 M parameters at 12 layers and 128,100 pieces), one tensor at a time (seed 7); `copy` adds files (a tokenizer)
 * beside the weights. Returns the weights' bytes.
 */
export function writeDebertaCheckpoint(dir: string, layers: number, vocab: number, copy: readonly string[] = []): number {
  const config = {
    architectures: ['DebertaV2ForTokenClassification'], model_type: 'deberta-v2', hidden_size: HIDDEN, num_hidden_layers: layers,
    num_attention_heads: 12, intermediate_size: FFN, hidden_act: 'gelu', layer_norm_eps: 1e-7, max_position_embeddings: 512,
    type_vocab_size: 0, vocab_size: vocab, pad_token_id: 0, relative_attention: true, max_relative_positions: -1, position_buckets: 256,
    pos_att_type: ['p2c', 'c2p'], norm_rel_ebd: 'layer_norm', share_att_key: true, position_biased_input: false,
    id2label: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [String(i), `LABEL_${i}`])),
  };
  const fills: RandomTensor[] = debertaTensors(layers, vocab).map(([name, shape, std]) => [name, shape, std < 0 ? 'ones' : std > 0 ? std : 'zeros']);
  return writeRandomCheckpoint(dir, config, fills, { seed: 7, copy });
}
