import { writeRandomCheckpoint, type RandomTensor } from './random-checkpoint.js';
import { join } from 'node:path';
import type { BertShape } from './graph-cache.js';

const VOCAB = 30522;
const POSITIONS = 512;
const LABELS = 9;

/** Every tensor of a `BertForTokenClassification` checkpoint of `s`: name → [shape, init (std; 0 = zeros, -1 = ones)]. */
export function bertTensors(s: BertShape): [string, number[], number][] {
  const h = s.hidden;
  const out: [string, number[], number][] = [];
  const lin = (p: string, o: number, i: number): void => void out.push([`${p}.weight`, [o, i], 0.02], [`${p}.bias`, [o], 0]);
  const norm = (p: string): void => void out.push([`${p}.weight`, [h], -1], [`${p}.bias`, [h], 0]);
  out.push(['bert.embeddings.word_embeddings.weight', [VOCAB, h], 0.02], ['bert.embeddings.position_embeddings.weight', [POSITIONS, h], 0.02]);
  out.push(['bert.embeddings.token_type_embeddings.weight', [2, h], 0.02]);
  norm('bert.embeddings.LayerNorm');
  for (let i = 0; i < s.layers; i++) {
    const l = `bert.encoder.layer.${i}`;
    for (const w of ['query', 'key', 'value']) {
      lin(`${l}.attention.self.${w}`, h, h);
    }
    lin(`${l}.attention.output.dense`, h, h);
    norm(`${l}.attention.output.LayerNorm`);
    lin(`${l}.intermediate.dense`, s.intermediate, h);
    lin(`${l}.output.dense`, h, s.intermediate);
    norm(`${l}.output.LayerNorm`);
  }
  lin('classifier', LABELS, h);
  return out;
}

/**
 * Writes (once; reused when `dir` is complete) a random F32 `BertForTokenClassification` checkpoint of shape
 * `s` — `config.json`, `model.safetensors`, and the conformance set's BERT tokenizer — streaming one tensor at
 * a time. Returns the weights' bytes.
 */
export function writeBertCheckpoint(dir: string, s: BertShape, tokenizerFrom: string | undefined, seed = 1): number {
  const config = {
    architectures: ['BertForTokenClassification'], model_type: 'bert',
    hidden_size: s.hidden, num_hidden_layers: s.layers, num_attention_heads: s.heads, intermediate_size: s.intermediate,
    hidden_act: 'gelu', layer_norm_eps: 1e-12, max_position_embeddings: POSITIONS, type_vocab_size: 2, vocab_size: VOCAB, pad_token_id: 0,
    id2label: Object.fromEntries(Array.from({ length: LABELS }, (_, i) => [String(i), `LABEL_${i}`])),
  };
  const fills: RandomTensor[] = bertTensors(s).map(([name, shape, std]) => [name, shape, std > 0 ? std : std < 0 ? 'ones' : 'zeros']);
  const copy = tokenizerFrom === undefined ? [] : ['tokenizer.json', 'tokenizer_config.json', 'vocab.txt'].map((f) => join(tokenizerFrom, f));
  return writeRandomCheckpoint(dir, config, fills, { seed, copy });
}
