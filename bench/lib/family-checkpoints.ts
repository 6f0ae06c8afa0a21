/**
 * Hub-style folders (`config.json` + `model.safetensors` + `tokenizer.json`) of random base-width token
 * classifiers, one per family inferkit builds from safetensors, for benches that serve them as a user would
 * (`--model_id=<folder>`). The tokenizer is the family's tiny conformance tokenizer, and each checkpoint's
 * `vocab_size` is written to match it: 30,522 WordPiece pieces for BERT, DistilBERT and ELECTRA (their real
 * size), 2,000 / 3,000 / 2,500 for RoBERTa / XLM-R / DeBERTa-v3 (real: 50,265 / 250,002 / 128,100).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bertTensors, writeBertCheckpoint } from './bert-checkpoint.js';
import { writeDebertaCheckpoint } from './deberta-checkpoint.js';
import { BERT_BASE, benchCacheDir } from './graph-cache.js';
import { writeRandomCheckpoint, type RandomTensor } from './random-checkpoint.js';
import { writeRobertaCheckpoint } from './roberta-checkpoint.js';

/** The families `--family` serves, as their checkpoints' `model_type` reads in speech. */
export const SERVED_FAMILIES = ['bert', 'distilbert', 'roberta', 'xlm-r', 'deberta-v3', 'electra'] as const;
/** One of {@link SERVED_FAMILIES}. */
export type ServedFamily = (typeof SERVED_FAMILIES)[number];

/** A written family folder. */
export interface FamilyCheckpoint {
  family: ServedFamily;
  /** The hub-style folder (`--model_id`). */
  dir: string;
  /** `RoBERTa-base (12 layers, hidden 768, vocab 2,000)` */
  label: string;
  layers: number;
  /** `vocab_size` written (= the tokenizer's ids). */
  vocab: number;
  /** Where the tokenizer came from (a conformance folder's name). */
  tokenizerFrom: string;
  /** Bytes of the F32 weights. */
  weightBytes: number;
}

/** Options of {@link cachedFamilyCheckpoint}. */
export interface FamilyCheckpointOptions {
  /** Encoder layers. @default 12 (DistilBERT: 6, as distilbert-base) */
  layers?: number;
  /** Folder the checkpoints live in. @default `<benchCacheDir()>/families` */
  root?: string;
  /** The conformance sets' folder (tokenizers). @default `INFERKIT_CONFORMANCE`, else `../shared/conformance` */
  conformance?: string;
}

const LABELS = 9;
const NAMES: Record<ServedFamily, [label: string, conformance: string]> = {
  bert: ['BERT-base', 'kserve-hf'],
  distilbert: ['DistilBERT-base', 'kserve-hf-distilbert'],
  roberta: ['RoBERTa-base', 'kserve-hf-roberta'],
  'xlm-r': ['XLM-R-base', 'kserve-hf-xlmr'],
  'deberta-v3': ['DeBERTa-v3-base', 'kserve-hf-deberta-v3'],
  electra: ['ELECTRA-base', 'kserve-hf'],
};
// Bump when a generator changes, so stale folders are not reused.
const VERSION = 'v1';

/** `['roberta,xlm-r', 'bert']` → the families, in the order given, once each; an unknown name throws naming the known ones. */
export function parseFamilies(values: readonly string[]): ServedFamily[] {
  const out: ServedFamily[] = [];
  for (const name of values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean)) {
    if (!(SERVED_FAMILIES as readonly string[]).includes(name)) {
      throw new Error(`--family ${name}: not one of ${SERVED_FAMILIES.join(', ')}`);
    }
    if (!out.includes(name as ServedFamily)) {
      out.push(name as ServedFamily);
    }
  }
  return out;
}

/** Token ids a `tokenizer.json` can produce: its model's vocabulary and added tokens. */
export function tokenizerIds(path: string): number {
  const json = JSON.parse(readFileSync(path, 'utf8')) as { model?: { vocab?: unknown }; added_tokens?: Array<{ id?: unknown }> };
  const vocab = json.model?.vocab;
  let size = Array.isArray(vocab) ? vocab.length : Object.values((vocab ?? {}) as Record<string, number>).reduce((n, id) => Math.max(n, id + 1), 0);
  for (const t of json.added_tokens ?? []) {
    size = typeof t.id === 'number' ? Math.max(size, t.id + 1) : size;
  }
  return size;
}

/** BERT's tensors renamed for `family` (DistilBERT's own names, no token types; ELECTRA's `electra.` prefix). */
function renamedBertTensors(family: 'distilbert' | 'electra', layers: number): RandomTensor[] {
  const fill = (std: number) => (std > 0 ? std : std < 0 ? 'ones' : 'zeros');
  const all = bertTensors({ ...BERT_BASE, layers }).map(([name, dims, std]): RandomTensor => [name, dims, fill(std)]);
  if (family === 'electra') {
    return all.map(([name, dims, f]) => [name.replace(/^bert\./, 'electra.'), dims, f]);
  }
  const rename: Array<[RegExp, string]> = [
    [/^bert\.encoder\.layer\./, 'distilbert.transformer.layer.'], [/^bert\./, 'distilbert.'], [/attention\.self\.query/, 'attention.q_lin'],
    [/attention\.self\.key/, 'attention.k_lin'], [/attention\.self\.value/, 'attention.v_lin'], [/attention\.output\.dense/, 'attention.out_lin'],
    [/attention\.output\.LayerNorm/, 'sa_layer_norm'], [/intermediate\.dense/, 'ffn.lin1'], [/output\.dense/, 'ffn.lin2'], [/output\.LayerNorm/, 'output_layer_norm'],
  ];
  return all.filter(([name]) => !name.includes('token_type_embeddings')).map(([name, dims, f]) => [rename.reduce((n, [re, to]) => n.replace(re, to), name), dims, f]);
}

function baseConfig(family: 'distilbert' | 'electra', layers: number, vocab: number): Record<string, unknown> {
  const id2label = Object.fromEntries(Array.from({ length: LABELS }, (_, i) => [String(i), `LABEL_${i}`]));
  const s = BERT_BASE;
  if (family === 'distilbert') {
    return { architectures: ['DistilBertForTokenClassification'], model_type: 'distilbert', dim: s.hidden, n_layers: layers, n_heads: s.heads, hidden_dim: s.intermediate, activation: 'gelu', vocab_size: vocab, max_position_embeddings: 512, sinusoidal_pos_embds: false, pad_token_id: 0, id2label };
  }
  return {
    architectures: ['ElectraForTokenClassification'], model_type: 'electra', embedding_size: s.hidden, hidden_size: s.hidden, num_hidden_layers: layers, num_attention_heads: s.heads,
    intermediate_size: s.intermediate, hidden_act: 'gelu', layer_norm_eps: 1e-12, max_position_embeddings: 512, type_vocab_size: 2, vocab_size: vocab, pad_token_id: 0, id2label,
  };
}

/**
 * Writes (once) `family`'s random base-width checkpoint (`config.json` + `model.safetensors`, seeded) of `layers`
 * and `vocab` into `dir`, with the files of `copy` beside it (tokenizer files; none for a graph-only bench).
 * Returns the weights' bytes. BERT's vocabulary is always 30,522.
 */
export function writeFamilyCheckpoint(family: ServedFamily, dir: string, layers: number, vocab: number, copy: readonly string[] = []): number {
  if (family === 'bert') {
    const from = copy.length > 0 ? dirname(copy[0]) : undefined;
    return writeBertCheckpoint(dir, { ...BERT_BASE, layers }, from);
  }
  if (family === 'roberta' || family === 'xlm-r') {
    return writeRobertaCheckpoint(dir, vocab, family === 'xlm-r', layers, copy);
  }
  if (family === 'deberta-v3') {
    return writeDebertaCheckpoint(dir, layers, vocab, copy);
  }
  return writeRandomCheckpoint(dir, baseConfig(family, layers, vocab), renamedBertTensors(family, layers), { seed: family === 'electra' ? 5 : 3, copy });
}

/**
 * The folder of `family`'s random base-width token classifier (hidden 768, 12 heads, FFN 3072) under the bench
 * cache, written once (seeded: the same bytes on every machine) with the family's conformance tokenizer copied in.
 */
export function cachedFamilyCheckpoint(family: ServedFamily, options: FamilyCheckpointOptions = {}): FamilyCheckpoint {
  const layers = options.layers ?? (family === 'distilbert' ? 6 : BERT_BASE.layers);
  const [name, set] = NAMES[family];
  const from = join(options.conformance ?? process.env.INFERKIT_CONFORMANCE ?? join(process.cwd(), '../shared/conformance'), set, 'model');
  const copy = ['tokenizer.json', 'tokenizer_config.json', 'vocab.txt'].map((f) => join(from, f)).filter((f) => existsSync(f));
  const vocab = tokenizerIds(join(from, 'tokenizer.json'));
  const dir = join(options.root ?? join(benchCacheDir(), 'families'), `${family}-L${layers}-H${BERT_BASE.hidden}-V${vocab}-${VERSION}`);
  const weightBytes = writeFamilyCheckpoint(family, dir, layers, vocab, copy);
  return { family, dir, label: `${name} (${layers} layers, hidden ${BERT_BASE.hidden}, vocab ${vocab.toLocaleString('en-US')})`, layers, vocab, tokenizerFrom: set, weightBytes };
}
