import { InferkitError } from '../../../errors.js';
import { addedTokenFlags, type TokenizerConfig } from '../model-files.js';
import { SPM_MODEL_TYPES, type SentencePieceModel } from './sentencepiece-model.js';
import { metaspace } from './metaspace.js';

/** The ids fairseq gave XLM-R's first tokens, which its checkpoints' embedding rows follow. */
const FAIRSEQ_SPECIALS = ['<s>', '<pad>', '</s>', '<unk>'] as const;
/** fairseq's unk id (`<unk>`), the Unigram model's unknown piece. */
const FAIRSEQ_UNK_ID = 3;
/** The pieces of a `sentencepiece.bpe.model` that fairseq's dictionary replaces with its own specials (sentencepiece's `<unk>`, `<s>`, `</s>`). */
const SPM_SPECIAL_PIECES = 3;
export const MASK = '<mask>';

/**
 * The tokenizer.json transformers' XLM-RoBERTa tokenizer (v5, KServe 0.20's) makes of a `sentencepiece.bpe.model`:
 * fairseq's ids, which the checkpoints were trained with (`<s>` 0, `<pad>` 1, `</s>` 2, `<unk>` 3, then the file's
 * pieces from its fourth on, each one id above its place in the file, then `<mask>`), as a Unigram model without
 * byte fallback; the class's pipeline: the file's precompiled normaliser (its `precompiled_charsmap`, none when
 * empty), split on whitespace, Metaspace `▁` (prefixed unless `add_prefix_space` is false), `<s> $A </s>`.
 * The class takes no `do_lower_case`.
 */
export function xlmRobertaTokenizerJson(model: SentencePieceModel, tokConfig: TokenizerConfig & Record<string, unknown>, path: string): Record<string, unknown> {
  checkFairseqModel(model, path, "XLM-RoBERTa's");
  const vocab: Array<[string, number]> = [
    ...FAIRSEQ_SPECIALS.map((t): [string, number] => [t, 0]),
    ...model.pieces.slice(SPM_SPECIAL_PIECES).map((p): [string, number] => [p.piece, p.score]),
    [MASK, 0],
  ];
  const [bos, , eos] = FAIRSEQ_SPECIALS;
  return fairseqUnigramJson({
    vocab,
    unkId: FAIRSEQ_UNK_ID,
    added: [...FAIRSEQ_SPECIALS.map((content, id) => ({ content, id })), { content: MASK, id: vocab.length - 1 }],
    bos: [bos, 0],
    eos: [eos, 2],
    pipeline: xlmRobertaPipeline(tokConfig, charsmapOf(model)),
    tokConfig,
  });
}

/** Fails unless `model` is a Unigram model with pieces past sentencepiece's own `<unk>`, `<s>`, `</s>` (a `family`'s file). */
export function checkFairseqModel(model: SentencePieceModel, path: string, family: string): void {
  if (model.modelType !== 1) {
    throw new InferkitError('model_load_failed', `${path}: a SentencePiece ${SPM_MODEL_TYPES[model.modelType] ?? `type ${model.modelType}`} model; ${family} sentencepiece.bpe.model is Unigram`, { param: 'model_type' });
  }
  if (model.pieces.length <= SPM_SPECIAL_PIECES) {
    throw new InferkitError('model_load_failed', `${path}: ${model.pieces.length} pieces, only sentencepiece's own specials; not ${family} vocabulary`);
  }
}

/** The file's precompiled charsmap as a tokenizer.json holds it (base64); undefined when it has none. */
export function charsmapOf(model: SentencePieceModel): string | undefined {
  return model.precompiledCharsmap === undefined ? undefined : Buffer.from(model.precompiledCharsmap).toString('base64');
}

/** What {@link fairseqUnigramJson} builds a tokenizer.json of. */
export interface FairseqUnigram {
  vocab: Array<[string, number]>;
  unkId: number;
  /** Special added tokens (`lstrip`: the class's default for the token, which takes the spaces before it). */
  added: Array<{ content: string; id: number; lstrip?: boolean }>;
  /** The tokens around a text (`<s> $A </s>`), with their ids. */
  bos: [string, number];
  eos: [string, number];
  pipeline: ReturnType<typeof xlmRobertaPipeline>;
  /** tokenizer_config.json: its `added_tokens_decoder` entries (and an AddedToken `mask_token`) set the strip flags. */
  tokConfig: Record<string, unknown>;
}

/** A fairseq-numbered Unigram tokenizer.json (no byte fallback): `<s> $A </s>`, pairs `<s> $A </s> </s> $B </s>`. */
export function fairseqUnigramJson(t: FairseqUnigram): Record<string, unknown> {
  const [bos, bosId] = t.bos;
  const [eos, eosId] = t.eos;
  const special = (id: string): Record<string, unknown> => ({ SpecialToken: { id, type_id: 0 } });
  const sequence = (id: string): Record<string, unknown> => ({ Sequence: { id, type_id: 0 } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: t.added.map(({ content, id, lstrip }) => ({
      id,
      content,
      single_word: false,
      ...addedTokenFlags(t.tokConfig, content, content === MASK ? t.tokConfig.mask_token : undefined, { lstrip: lstrip === true, rstrip: false }),
      normalized: false,
      special: true,
    })),
    ...t.pipeline,
    post_processor: {
      type: 'TemplateProcessing',
      single: [special(bos), sequence('A'), special(eos)],
      pair: [special(bos), sequence('A'), special(eos), special(eos), sequence('B'), special(eos)],
      special_tokens: {
        [bos]: { id: bos, ids: [bosId], tokens: [bos] },
        [eos]: { id: eos, ids: [eosId], tokens: [eos] },
      },
    },
    model: { type: 'Unigram', unk_id: t.unkId, vocab: t.vocab, byte_fallback: false },
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
