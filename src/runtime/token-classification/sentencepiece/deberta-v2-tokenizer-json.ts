import { InferkitError } from '../../../errors.js';
import { specialAddedTokens, specialTokenText, type SpecialTokenSpec, type TokenizerConfig } from '../model-files.js';
import { SPM_MODEL_TYPES, type SentencePieceModel } from './sentencepiece-model.js';
import { metaspace } from './metaspace.js';

/** DeBERTa-v2/v3's special tokens in tokenizer_config.json, with transformers' defaults (none strips spaces). */
const SPECIALS: readonly SpecialTokenSpec[] = [
  ['pad_token', '[PAD]'],
  ['cls_token', '[CLS]'],
  ['sep_token', '[SEP]'],
  ['unk_token', '[UNK]'],
  ['mask_token', '[MASK]'],
] as const;

/**
 * The tokenizer.json transformers' DeBERTa-v2 tokenizer (v5, KServe 0.20's) makes of an `spm.model`: the file's
 * pieces and scores as a Unigram model (its unk id; no byte fallback), and the class's own pipeline, not the file's
 * normaliser: `\s{2,}` and `\n\r\t` to one space, NFC, strip on the right; split on punctuation when `split_by_punct`;
 * Metaspace `▁` (every word prefixed; with `add_prefix_space` false, the text's first only); `[CLS] $A [SEP]`; the special
 * tokens of tokenizer_config.json matched whole in the text, with the `lstrip`/`rstrip` it gives them (one missing from
 * the vocabulary, such as deberta-v3's `[MASK]`, takes the next id). Lower-casing is left to the caller (KServe's `do_lower_case`), as for a tokenizer.json.
 */
export function debertaV2TokenizerJson(model: SentencePieceModel, tokConfig: TokenizerConfig & Record<string, unknown>, path: string): Record<string, unknown> {
  if (model.modelType !== 1) {
    throw new InferkitError('model_load_failed', `${path}: a SentencePiece ${SPM_MODEL_TYPES[model.modelType] ?? `type ${model.modelType}`} model; DeBERTa-v2/v3's spm.model is Unigram`, { param: 'model_type' });
  }
  const pieceIds = new Map<string, number>();
  model.pieces.forEach((p, i) => {
    if (!pieceIds.has(p.piece)) {
      pieceIds.set(p.piece, i);
    }
  });
  const { added, ids } = specialAddedTokens(tokConfig, SPECIALS, (content) => pieceIds.get(content), model.pieces.length);
  const cls = specialTokenText(tokConfig.cls_token, '[CLS]');
  const sep = specialTokenText(tokConfig.sep_token, '[SEP]');
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: added,
    ...debertaV2Pipeline(tokConfig),
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: cls, type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: sep, type_id: 0 } }],
      pair: [{ SpecialToken: { id: cls, type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: sep, type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: sep, type_id: 1 } }],
      special_tokens: {
        [cls]: { id: cls, ids: [ids.get(cls)], tokens: [cls] },
        [sep]: { id: sep, ids: [ids.get(sep)], tokens: [sep] },
      },
    },
    // The class builds its Unigram model without byte fallback, whatever the file's trainer used.
    model: { type: 'Unigram', unk_id: model.unkId, vocab: model.pieces.map((p) => [p.piece, p.score]), byte_fallback: false },
  };
}

/**
 * The normaliser, pre-tokenizer and decoder transformers 5's `DebertaV2Tokenizer` builds, whatever its files hold:
 * `\s{2,}` and `\n\r\t` to one space, NFC, strip on the right; split on punctuation when `split_by_punct`; Metaspace
 * `▁` before every word, or with `add_prefix_space` false before the text's first only (the class's `prepend_scheme` "first").
 */
export function debertaV2Pipeline(tokConfig: Record<string, unknown>): Record<'normalizer' | 'pre_tokenizer' | 'decoder', Record<string, unknown>> {
  const step = metaspace(tokConfig, 'first');
  return {
    normalizer: {
      type: 'Sequence',
      normalizers: [{ type: 'Replace', pattern: { Regex: '\\s{2,}|[\\n\\r\\t]' }, content: ' ' }, { type: 'NFC' }, { type: 'Strip', strip_left: false, strip_right: true }],
    },
    pre_tokenizer: { type: 'Sequence', pretokenizers: [...(tokConfig.split_by_punct === true ? [{ type: 'Punctuation', behavior: 'Isolated' }] : []), step] },
    decoder: step,
  };
}
