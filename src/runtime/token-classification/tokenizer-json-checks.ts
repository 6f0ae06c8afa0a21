import { InferkitError } from '../../errors.js';

/** The tokenizer.json model types inferkit tokenizes (WordPiece, byte-level or plain BPE, SentencePiece Unigram, WordLevel). */
export const TOKENIZER_MODEL_TYPES = ['WordPiece', 'BPE', 'Unigram', 'WordLevel'] as const;

/** Fails on a tokenizer model of an unknown type (naming it), or one whose ids pass the model's embedding rows (naming both sizes). */
export function checkTokenizerModel(json: Record<string, unknown>, path: string, embeddingRows: number | undefined): void {
  const model = json.model as { type?: unknown; vocab?: unknown } | null | undefined;
  const type = model?.type;
  if (typeof type !== 'string' || !(TOKENIZER_MODEL_TYPES as readonly string[]).includes(type)) {
    throw new InferkitError('model_load_failed', `${path}: tokenizer model type ${JSON.stringify(type ?? null)} is not one inferkit tokenizes (${TOKENIZER_MODEL_TYPES.join(', ')})`, { param: 'model.type' });
  }
  let size = 0;
  const vocab = model?.vocab; // one const: tslab's TypeScript 5.0 does not narrow `model` through `model?.vocab`
  if (Array.isArray(vocab)) {
    size = vocab.length; // Unigram: [piece, score] pairs, id = index
  } else if (vocab !== null && typeof vocab === 'object') {
    for (const id of Object.values(vocab as Record<string, unknown>)) {
      size = typeof id === 'number' ? Math.max(size, id + 1) : size;
    }
  }
  for (const t of Array.isArray(json.added_tokens) ? (json.added_tokens as Array<{ id?: unknown }>) : []) {
    size = typeof t.id === 'number' ? Math.max(size, t.id + 1) : size;
  }
  checkVocabSize(size, path, embeddingRows);
}

/** Fails when a tokenizer of `size` ids does not fit an embedding of `embeddingRows` rows (names both). */
export function checkVocabSize(size: number, path: string, embeddingRows: number | undefined): void {
  if (embeddingRows !== undefined && size > embeddingRows) {
    throw new InferkitError('model_load_failed', `${path}: the tokenizer has ${size} token ids, the model's word embedding (config.json vocab_size) ${embeddingRows} rows: a tokenizer of another model?`, { param: 'vocab_size' });
  }
}

/**
 * Whether transformers' tokenizer of this file takes `do_lower_case` (so KServe's default and
 * `--disable_lower_case` change it): BERT-normalised ones do; byte-level BPE (RoBERTa, GPT-2) and the
 * RoBERTa/XLM-R/CamemBERT/BART classes do not.
 */
export function honoursLowerCase(json: Record<string, unknown>, tokenizerClass: unknown): boolean {
  const has = (n: unknown, type: string): boolean => {
    const node = n as { type?: unknown; normalizers?: unknown; pretokenizers?: unknown } | null | undefined;
    return node?.type === type || [node?.normalizers, node?.pretokenizers].some((list) => Array.isArray(list) && list.some((m) => has(m, type)));
  };
  if (has(json.normalizer, 'BertNormalizer')) {
    return true;
  }
  if (has(json.pre_tokenizer, 'ByteLevel')) {
    return false;
  }
  return !(typeof tokenizerClass === 'string' && /^(XLMRoberta|Roberta|Camembert|Bart|GPT2|Longformer)Tokenizer/.test(tokenizerClass));
}
