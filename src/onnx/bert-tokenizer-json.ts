import { InferkitError } from '../errors.js';
import { BERT_SPECIAL_TOKENS } from './ner-fixture-vocab.js';

/** Options of {@link bertTokenizerJson}. */
export interface BertTokenizerJsonOptions {
  /** WordPiece vocabulary, index = id; must contain [PAD], [UNK], [CLS], [SEP], [MASK]. */
  vocab: readonly string[];
  /** Lower-case (and BERT-normalise) the input before WordPiece. */
  lowercase: boolean;
}

/** A JSON value as written to disk. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A Hugging Face tokenizers `tokenizer.json` for a BERT WordPiece vocabulary: BertNormalizer,
 * BertPreTokenizer, WordPiece (`[UNK]`, prefix `##`), TemplateProcessing `[CLS] $A [SEP]`
 * (pairs `[CLS] $A [SEP] $B:1 [SEP]:1`), WordPiece decoder, padding and truncation null.
 */
export function bertTokenizerJson(opts: BertTokenizerJsonOptions): { [key: string]: JsonValue } {
  const ids = new Map<string, number>();
  opts.vocab.forEach((token, id) => ids.set(token, id));
  if (ids.size !== opts.vocab.length) {
    throw new InferkitError('invalid_request', 'bertTokenizerJson: vocabulary has duplicate tokens');
  }
  const idOf = (token: string): number => {
    const id = ids.get(token);
    if (id === undefined) {
      throw new InferkitError('invalid_request', `bertTokenizerJson: vocabulary lacks ${token}`);
    }
    return id;
  };
  const special = Object.values(BERT_SPECIAL_TOKENS);
  const addedTokens: JsonValue[] = special
    .map((content) => ({ content, id: idOf(content) }))
    .sort((a, b) => a.id - b.id)
    .map(({ content, id }) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }));
  const cls = BERT_SPECIAL_TOKENS.cls;
  const sep = BERT_SPECIAL_TOKENS.sep;
  const piece = (kind: 'SpecialToken' | 'Sequence', id: string, typeId: number): JsonValue => ({ [kind]: { id, type_id: typeId } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: addedTokens,
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: opts.lowercase },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [piece('SpecialToken', cls, 0), piece('Sequence', 'A', 0), piece('SpecialToken', sep, 0)],
      pair: [
        piece('SpecialToken', cls, 0),
        piece('Sequence', 'A', 0),
        piece('SpecialToken', sep, 0),
        piece('Sequence', 'B', 1),
        piece('SpecialToken', sep, 1),
      ],
      special_tokens: {
        [cls]: { id: cls, ids: [idOf(cls)], tokens: [cls] },
        [sep]: { id: sep, ids: [idOf(sep)], tokens: [sep] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: BERT_SPECIAL_TOKENS.unk,
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(opts.vocab.map((token, id) => [token, id])),
    },
  };
}
