import { InferkitError } from '../../../errors.js';
import type { TokenizerConfig } from '../model-files.js';
import { SPM_MODEL_TYPES, type SentencePieceModel } from './sentencepiece-model.js';
import { metaspace } from './metaspace.js';

/** The ids fairseq gave XLM-R's first tokens, which its checkpoints' embedding rows follow. */
const FAIRSEQ_SPECIALS = ['<s>', '<pad>', '</s>', '<unk>'] as const;
/** fairseq's unk id (`<unk>`), the Unigram model's unknown piece. */
const FAIRSEQ_UNK_ID = 3;
/** The pieces of a `sentencepiece.bpe.model` that fairseq's dictionary replaces with its own specials (sentencepiece's `<unk>`, `<s>`, `</s>`). */
const SPM_SPECIAL_PIECES = 3;
const MASK = '<mask>';

/**
 * The tokenizer.json transformers' XLM-RoBERTa tokenizer (v5, KServe 0.20's) makes of a `sentencepiece.bpe.model`:
 * fairseq's ids, which the checkpoints were trained with (`<s>` 0, `<pad>` 1, `</s>` 2, `<unk>` 3, then the file's
 * pieces from its fourth on, each one id above its place in the file, then `<mask>`), as a Unigram model without
 * byte fallback; the class's pipeline: the file's precompiled normaliser (its `precompiled_charsmap`, none when
 * empty), split on whitespace, Metaspace `▁` (prefixed unless `add_prefix_space` is false), `<s> $A </s>`.
 * The class takes no `do_lower_case`.
 */
export function xlmRobertaTokenizerJson(model: SentencePieceModel, tokConfig: TokenizerConfig & Record<string, unknown>, path: string): Record<string, unknown> {
  if (model.modelType !== 1) {
    throw new InferkitError('model_load_failed', `${path}: a SentencePiece ${SPM_MODEL_TYPES[model.modelType] ?? `type ${model.modelType}`} model; XLM-RoBERTa's sentencepiece.bpe.model is Unigram`, { param: 'model_type' });
  }
  if (model.pieces.length <= SPM_SPECIAL_PIECES) {
    throw new InferkitError('model_load_failed', `${path}: ${model.pieces.length} pieces, only sentencepiece's own specials; not an XLM-RoBERTa vocabulary`);
  }
  const vocab: Array<[string, number]> = [
    ...FAIRSEQ_SPECIALS.map((t): [string, number] => [t, 0]),
    ...model.pieces.slice(SPM_SPECIAL_PIECES).map((p): [string, number] => [p.piece, p.score]),
    [MASK, 0],
  ];
  const special = (content: string, id: number): Record<string, unknown> => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const [bos, , eos] = FAIRSEQ_SPECIALS;
  const charsmap = model.precompiledCharsmap === undefined ? undefined : Buffer.from(model.precompiledCharsmap).toString('base64');
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [...FAIRSEQ_SPECIALS.map((t, id) => special(t, id)), special(MASK, vocab.length - 1)],
    ...xlmRobertaPipeline(tokConfig, charsmap),
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: bos, type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: eos, type_id: 0 } }],
      pair: [
        { SpecialToken: { id: bos, type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: eos, type_id: 0 } },
        { SpecialToken: { id: eos, type_id: 0 } },
        { Sequence: { id: 'B', type_id: 0 } },
        { SpecialToken: { id: eos, type_id: 0 } },
      ],
      special_tokens: {
        [bos]: { id: bos, ids: [0], tokens: [bos] },
        [eos]: { id: eos, ids: [2], tokens: [eos] },
      },
    },
    model: { type: 'Unigram', unk_id: FAIRSEQ_UNK_ID, vocab, byte_fallback: false },
  };
}

/**
 * The normaliser, pre-tokenizer and decoder transformers 5's `XLMRobertaTokenizer` builds, whatever its files hold:
 * the precompiled normaliser of the SentencePiece model (`charsmap`, base64; none without one), split on whitespace,
 * Metaspace `▁` (prefixed unless `add_prefix_space` is false).
 */
export function xlmRobertaPipeline(tokConfig: Record<string, unknown>, charsmap: string | undefined): Record<'normalizer' | 'pre_tokenizer' | 'decoder', Record<string, unknown> | null> {
  const step = metaspace(tokConfig, 'never');
  return {
    normalizer: charsmap === undefined ? null : { type: 'Precompiled', precompiled_charsmap: charsmap },
    pre_tokenizer: { type: 'Sequence', pretokenizers: [{ type: 'WhitespaceSplit' }, step] },
    decoder: step,
  };
}
