import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
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
export function writeBertCheckpoint(dir: string, s: BertShape, tokenizerFrom: string, seed = 1): number {
  const tensors = bertTensors(s);
  const bytes = tensors.reduce((n, [, shape]) => n + shape.reduce((a, b) => a * b, 1) * 4, 0);
  if (existsSync(join(dir, 'complete'))) {
    return bytes;
  }
  const tmp = `${dir}.incomplete`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const header: Record<string, unknown> = {};
  let at = 0;
  for (const [name, shape] of tensors) {
    const n = shape.reduce((a, b) => a * b, 1) * 4;
    header[name] = { dtype: 'F32', shape, data_offsets: [at, at + n] };
    at += n;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const fd = openSync(join(tmp, 'model.safetensors'), 'w');
  try {
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(json.length));
    writeSync(fd, len);
    writeSync(fd, Buffer.from(json, 'utf8'));
    let state = seed >>> 0 || 1;
    for (const [, shape, std] of tensors) {
      const v = new Float32Array(shape.reduce((a, b) => a * b, 1));
      if (std < 0) {
        v.fill(1);
      } else if (std > 0) {
        const scale = std * Math.sqrt(3);
        for (let i = 0; i < v.length; i++) {
          state ^= state << 13;
          state ^= state >>> 17;
          state ^= state << 5;
          v[i] = ((state >>> 0) / 2 ** 31 - 1) * scale;
        }
      }
      writeSync(fd, new Uint8Array(v.buffer));
    }
  } finally {
    closeSync(fd);
  }
  const config = {
    architectures: ['BertForTokenClassification'], model_type: 'bert',
    hidden_size: s.hidden, num_hidden_layers: s.layers, num_attention_heads: s.heads, intermediate_size: s.intermediate,
    hidden_act: 'gelu', layer_norm_eps: 1e-12, max_position_embeddings: POSITIONS, type_vocab_size: 2, vocab_size: VOCAB, pad_token_id: 0,
    id2label: Object.fromEntries(Array.from({ length: LABELS }, (_, i) => [String(i), `LABEL_${i}`])),
  };
  writeFileSync(join(tmp, 'config.json'), JSON.stringify(config, null, 2));
  for (const f of ['tokenizer.json', 'tokenizer_config.json', 'vocab.txt']) {
    writeFileSync(join(tmp, f), readFileSync(join(tokenizerFrom, f)));
  }
  writeFileSync(join(tmp, 'complete'), '');
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return bytes;
}
