/**
 * Random-weight RoBERTa / XLM-RoBERTa token classifiers (BERT's tensors under `roberta.`, offset positions),
 * written with the benches' one random-checkpoint writer (streamed, seeded). Used by gpu-bench's built
 * families and by server-limit's `--family`.
 */
import { bertTensors } from './bert-checkpoint.js';
import { BERT_BASE } from './graph-cache.js';
import { writeRandomCheckpoint, type RandomTensor } from './random-checkpoint.js';

const LABELS = 9;

/**
 * Writes a random `RobertaForTokenClassification` (roberta-base: `vocab` 50,265) or, with `xlmr`,
 * `XLMRobertaForTokenClassification` (xlm-roberta-base: 250,002) checkpoint of the base shape (12 layers,
 * hidden 768) into `dir`; `layers` shrinks it for rehearsals, `copy` adds files (a tokenizer) beside the
 * weights. Returns the weights' bytes.
 */
export function writeRobertaCheckpoint(dir: string, vocab: number, xlmr: boolean, layers = BERT_BASE.layers, copy: readonly string[] = []): number {
  const shape = { ...BERT_BASE, layers };
  const h = shape.hidden;
  const fills = robertaTensors(vocab, layers);
  const config = {
    architectures: [xlmr ? 'XLMRobertaForTokenClassification' : 'RobertaForTokenClassification'], model_type: xlmr ? 'xlm-roberta' : 'roberta',
    hidden_size: h, num_hidden_layers: layers, num_attention_heads: shape.heads, intermediate_size: shape.intermediate, hidden_act: 'gelu',
    layer_norm_eps: 1e-5, max_position_embeddings: 514, type_vocab_size: 1, vocab_size: vocab, pad_token_id: 1, bos_token_id: 0, eos_token_id: 2,
    id2label: Object.fromEntries(Array.from({ length: LABELS }, (_, i) => [String(i), `LABEL_${i}`])),
  };
  return writeRandomCheckpoint(dir, config, fills, { seed: 11, copy });
}

/** Every tensor of a base-width RoBERTa token classifier: BERT's under `roberta.`, 514 positions, one token type. */
export function robertaTensors(vocab: number, layers = BERT_BASE.layers): RandomTensor[] {
  const h = BERT_BASE.hidden;
  return bertTensors({ ...BERT_BASE, layers }).map(([name, dims, std]): RandomTensor => {
    const renamed = name.replace(/^bert\./, 'roberta.');
    const resized = renamed.endsWith('word_embeddings.weight') ? [vocab, h] : renamed.endsWith('position_embeddings.weight') ? [514, h] : renamed.endsWith('token_type_embeddings.weight') ? [1, h] : dims;
    return [renamed, resized, std > 0 ? std : std < 0 ? 'ones' : 'zeros'];
  });
}
