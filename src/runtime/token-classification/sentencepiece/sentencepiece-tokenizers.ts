import { SPM_MODEL_FILE, XLMR_SPM_MODEL_FILE, type SENTENCEPIECE_MODEL_FILES } from '../../../hub/file-spec.js';
import type { TokenizerConfig } from '../model-files.js';
import { camembertTokenizerJson } from './camembert-tokenizer-json.js';
import { debertaV2Pipeline, debertaV2TokenizerJson } from './deberta-v2-tokenizer-json.js';
import type { SentencePieceModel } from './sentencepiece-model.js';
import { xlmRobertaPipeline, xlmRobertaTokenizerJson } from './xlm-roberta-tokenizer-json.js';

/** How one family's SentencePiece model file becomes the tokenizer.json transformers makes of it. */
export interface SentencePieceTokenizer {
  /** The file transformers' class reads (its `vocab_file`). */
  file: (typeof SENTENCEPIECE_MODEL_FILES)[number];
  /** transformers' tokenizer class (what AutoTokenizer takes for the model type). */
  tokenizerClass: string;
  build(model: SentencePieceModel, tokConfig: TokenizerConfig & Record<string, unknown>, path: string): Record<string, unknown>;
  /** The class's own normaliser, pre-tokenizer and decoder, given its tokenizer_config.json and the tokenizer.json it was loaded from. */
  pipeline(tokConfig: Record<string, unknown>, json: Record<string, unknown>): Record<'normalizer' | 'pre_tokenizer' | 'decoder', Record<string, unknown> | null>;
}

/** XLM-R's (and CamemBERT's) class pipeline of a tokenizer.json: the charsmap of the file's own Precompiled normaliser, if any. */
function xlmRobertaClassPipeline(tokConfig: Record<string, unknown>, json: Record<string, unknown>): ReturnType<typeof xlmRobertaPipeline> {
  return xlmRobertaPipeline(tokConfig, precompiledCharsmapOf(json.normalizer));
}

/** The families inferkit reads a SentencePiece model file for, by config.json `model_type`. */
export const SENTENCEPIECE_TOKENIZERS: Readonly<Record<string, SentencePieceTokenizer>> = {
  'deberta-v2': { file: SPM_MODEL_FILE, tokenizerClass: 'DebertaV2Tokenizer', build: debertaV2TokenizerJson, pipeline: (tokConfig) => debertaV2Pipeline(tokConfig) },
  'xlm-roberta': { file: XLMR_SPM_MODEL_FILE, tokenizerClass: 'XLMRobertaTokenizer', build: xlmRobertaTokenizerJson, pipeline: xlmRobertaClassPipeline },
  // The same file name and class pipeline as XLM-R's; fairseq numbered CamemBERT's dictionary otherwise.
  camembert: { file: XLMR_SPM_MODEL_FILE, tokenizerClass: 'CamembertTokenizer', build: camembertTokenizerJson, pipeline: xlmRobertaClassPipeline },
};

/** The normaliser, pre-tokenizer and decoder a tokenizer class builds, given its tokenizer_config.json and the tokenizer.json it was loaded from. */
type ClassPipeline = SentencePieceTokenizer['pipeline'];

/** The classes transformers 5 builds their own pipeline for from a tokenizer.json (see {@link asClassBuildsIt}). */
const CLASS_PIPELINES: Readonly<Record<string, ClassPipeline>> = Object.fromEntries(Object.values(SENTENCEPIECE_TOKENIZERS).map((t) => [t.tokenizerClass, t.pipeline]));

/**
 * A tokenizer.json of a class transformers 5 builds itself (its own `__init__`: `XLMRobertaTokenizer`,
 * `DebertaV2Tokenizer`, `CamembertTokenizer`, or their `…Fast` names), as KServe 0.20 loads it: the file's vocabulary, added tokens and
 * post-processor, and the class's normaliser, pre-tokenizer and decoder (and no byte fallback), not the file's. A file
 * saved by transformers 4 holds its converter's pipeline: XLM-R's kept a trailing space as a `▁` token and a blank
 * text as one; DeBERTa's stripped both ends and, with the model's charsmap, normalised NFKC where the class
 * normalises NFC. Other classes, and a file whose model is not Unigram, stay as written.
 */
export function asClassBuildsIt(json: Record<string, unknown>, tokenizerClass: unknown, tokConfig: Record<string, unknown>): Record<string, unknown> {
  const name = typeof tokenizerClass === 'string' ? tokenizerClass.replace(/Fast$/, '') : undefined;
  const pipeline = name !== undefined && Object.hasOwn(CLASS_PIPELINES, name) ? CLASS_PIPELINES[name] : undefined;
  if (pipeline === undefined || (json.model as { type?: unknown } | null | undefined)?.type !== 'Unigram') {
    return json;
  }
  // These classes build their Unigram model without byte fallback.
  return { ...json, ...pipeline(tokConfig, json), model: { ...(json.model as Record<string, unknown>), byte_fallback: false } };
}

/** The base64 `precompiled_charsmap` of the first Precompiled normaliser in a tokenizer.json normaliser (as transformers 5 takes it), if any. */
function precompiledCharsmapOf(normalizer: unknown): string | undefined {
  const node = normalizer as { type?: unknown; normalizers?: unknown; precompiled_charsmap?: unknown } | null | undefined;
  const list = node?.type === 'Sequence' && Array.isArray(node.normalizers) ? (node.normalizers as unknown[]) : [node];
  for (const n of list) {
    const m = n as { type?: unknown; precompiled_charsmap?: unknown } | null | undefined;
    if (m?.type === 'Precompiled' && typeof m.precompiled_charsmap === 'string' && m.precompiled_charsmap.length > 0) {
      return m.precompiled_charsmap;
    }
  }
  return undefined;
}

/** The SentencePiece family of a config.json `model_type` (own keys only: `constructor` is no model type). */
export function sentencePieceFamily(modelType: unknown): SentencePieceTokenizer | undefined {
  return typeof modelType === 'string' && Object.hasOwn(SENTENCEPIECE_TOKENIZERS, modelType) ? SENTENCEPIECE_TOKENIZERS[modelType] : undefined;
}

/** The model types and their files, `"deberta-v2" (spm.model), "xlm-roberta" (sentencepiece.bpe.model)`, for errors. */
export function sentencePieceFamilies(): string {
  return Object.entries(SENTENCEPIECE_TOKENIZERS)
    .map(([type, t]) => `${JSON.stringify(type)} (${t.file})`)
    .join(', ');
}
