import { InferkitError } from '../../../errors.js';
import type { TokenizerConfig } from '../model-files.js';
import type { SentencePieceModel } from './sentencepiece-model.js';
import { charsmapOf, checkFairseqModel, fairseqUnigramJson, MASK, xlmRobertaPipeline } from './xlm-roberta-tokenizer-json.js';

/**
 * fairseq's first ids in CamemBERT's dictionary, which its checkpoints' embedding rows follow: three unused copies of
 * sentencepiece's specials around `<pad>` and `<unk>`. `<unk>NOTUSED` is scored -100, so the Unigram model never picks
 * it over a real piece.
 */
const FAIRSEQ_HEAD: ReadonlyArray<[string, number]> = [
  ['<s>NOTUSED', 0],
  ['<pad>', 0],
  ['</s>NOTUSED', 0],
  ['<unk>', 0],
  ['<unk>NOTUSED', -100],
];
/** `<unk>`'s id, the Unigram model's unknown piece. */
const UNK_ID = 3;

/**
 * The tokenizer.json transformers 5 makes of a CamemBERT `sentencepiece.bpe.model` (its converter's vocabulary, the
 * class's pipeline): fairseq's five first ids (`<s>NOTUSED` 0, `<pad>` 1, `</s>NOTUSED` 2, `<unk>` 3,
 * `<unk>NOTUSED` 4), then the file's pieces from its second on (sentencepiece's `<s>`, `</s>` land at 5 and 6, piece
 * `i` at `i + 4`), then `<mask>`, which takes the spaces before it (the class's `lstrip`); a Unigram model without
 * byte fallback; the same pipeline as XLM-R's class (the file's precompiled normaliser, split on whitespace,
 * Metaspace); `<s> $A </s>` with the ids the vocabulary gives them. The class takes no `do_lower_case`.
 */
export function camembertTokenizerJson(model: SentencePieceModel, tokConfig: TokenizerConfig & Record<string, unknown>, path: string): Record<string, unknown> {
  checkFairseqModel(model, path, "CamemBERT's");
  const vocab: Array<[string, number]> = [...FAIRSEQ_HEAD.map(([t, s]): [string, number] => [t, s]), ...model.pieces.slice(1).map((p): [string, number] => [p.piece, p.score]), [MASK, 0]];
  const idOf = (token: string): number => vocab.findIndex(([t]) => t === token);
  const bos = idOf('<s>');
  const eos = idOf('</s>');
  if (bos < 0 || eos < 0) {
    throw new InferkitError('model_load_failed', `${path}: no ${bos < 0 ? '<s>' : '</s>'} piece; not CamemBERT's vocabulary (its file has sentencepiece's <unk>, <s>, </s> first)`);
  }
  return fairseqUnigramJson({
    vocab,
    unkId: UNK_ID,
    added: [
      ...FAIRSEQ_HEAD.map(([content], id) => ({ content, id })),
      { content: '<s>', id: bos },
      { content: '</s>', id: eos },
      { content: MASK, id: vocab.length - 1, lstrip: true },
    ],
    bos: ['<s>', bos],
    eos: ['</s>', eos],
    pipeline: xlmRobertaPipeline(tokConfig, charsmapOf(model)),
    tokConfig,
  });
}
