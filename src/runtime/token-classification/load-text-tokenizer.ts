import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import tokenizers from 'tokenizers';
import type { Encoding, Tokenizer } from 'tokenizers';
import { InferkitError } from '../../errors.js';
import type { SENTENCEPIECE_MODEL_FILES } from '../../hub/file-spec.js';
import { createBertWordPiece, type BertWordPieceEncoder } from './bert-wordpiece.js';
import { bertSpecFromTokenizerJson, bertSpecFromVocab, readVocabTxt } from './bert-wordpiece-spec.js';
import { readJsonFile, readJsonObjectFile, SpecialTokensMapSchema, specialTokenText, TokenizerConfigSchema, type TokenClassConfig, type TokenClassFiles, type TokenizerConfig } from './model-files.js';
import { checkTokenizerModel, checkVocabSize, honoursLowerCase } from './tokenizer-json-checks.js';
import { codePointToUtf16Offsets } from './utf16-offsets.js';
import { robertaTokenizerJson } from './byte-level-bpe/roberta-tokenizer-json.js';
import { readSentencePieceModel } from './sentencepiece/sentencepiece-model.js';
import { asClassBuildsIt, sentencePieceFamilies, sentencePieceFamily } from './sentencepiece/sentencepiece-tokenizers.js';
import { tokenizerAbortProblem } from './tokenizer-json-aborts.js';
import { addExtraTokens, readExtraAddedTokens, SPECIAL_KEYS, type ExtraAddedToken } from './added-tokens.js';
import type { EncodedText } from './encoded-text.js';

export type { EncodedText } from './encoded-text.js';

/** Where the effective lower-casing came from (see {@link loadTextTokenizer}). */
export type LowerCaseSource = 'option' | 'tokenizer_config' | 'tokenizer.json' | 'spm.model' | 'sentencepiece.bpe.model' | 'vocab.json' | 'default';
/** A SentencePiece model file inferkit reads (one of LowerCaseSource's, which the compiler holds it to where a source is named). */
type SentencePieceFile = (typeof SENTENCEPIECE_MODEL_FILES)[number];
/** Where the effective maximum length came from. */
export type MaxLengthSource = 'option' | 'tokenizer_config' | 'config' | 'default';
/**
 * Which tokenizer runs: `wordpiece`, inferkit's synchronous BERT WordPiece (same output as
 * `tokenizers` for exactly BERT's pipeline, without the thread-pool hop), or `tokenizers`, the
 * native Hugging Face package (any other `tokenizer.json`).
 */
export type TokenizerEngine = 'wordpiece' | 'tokenizers';

/** Options of {@link loadTextTokenizer}. */
export interface TextTokenizerOptions {
  /** `true` keeps case (`--disable_lower_case`); `false` forces lower-casing; unset: see precedence. */
  disableLowerCase?: boolean;
  /** Maximum tokens per text, `[CLS]`/`[SEP]` included (`--max_model_len`, `--max_length`). */
  maxLength?: number;
  /** `false` adds no `[CLS]`/`[SEP]` (`--disable_special_tokens`); an empty text then has no tokens. @default true */
  addSpecialTokens?: boolean;
  /** `tokenizers` always uses the native package; `auto` takes `wordpiece` where the pipeline is exactly BERT's. @default 'auto' */
  tokenizerEngine?: 'auto' | 'tokenizers';
  /** Rows of the model's word embedding (config.json `vocab_size`): a tokenizer with ids past it fails naming both sizes. */
  embeddingRows?: number;
}


/** A tokenizer created once per model. */
export interface TextTokenizer {
  /** Whether input is lower-cased, and why. */
  readonly lowercase: boolean;
  readonly lowercaseSource: LowerCaseSource;
  /** Maximum tokens per text, and why. */
  readonly maxLength: number;
  readonly maxLengthSource: MaxLengthSource;
  /** Which tokenizer runs (see {@link TokenizerEngine}). */
  readonly engine: TokenizerEngine;
  /** Tokenizes `texts` (truncating at `maxLength`); `details` adds offsets and word ids. */
  encode(texts: readonly string[], details: boolean): Promise<EncodedText[]>;
  /** The same, synchronously; undefined for the `tokenizers` engine (its batches run on the libuv pool). */
  readonly encodeSync?: (texts: readonly string[], details: boolean) => EncodedText[];
}

// Hugging Face writes this huge number when a tokenizer has no real limit.
const UNSET_MAX_LENGTH = 1e9;

/**
 * Builds the tokenizer of a token-classification repo: `tokenizer.json` when present (for XLM-R and DeBERTa-v2/v3,
 * with the normaliser and pre-tokenizer transformers 5's class builds, as KServe 0.20 loads it), else a BERT
 * WordPiece tokenizer from `vocab.txt` (BertNormalizer, BertPreTokenizer, `[CLS] $A [SEP]`), else the
 * tokenizer.json transformers makes of a SentencePiece model: DeBERTa-v2/v3's `spm.model`, XLM-R's
 * `sentencepiece.bpe.model` (./sentencepiece/), or of RoBERTa's `vocab.json` + `merges.txt` (./byte-level-bpe/).
 * Without a tokenizer.json, the repo's added tokens (`added_tokens.json`, tokenizer_config.json's
 * `added_tokens_decoder`) are added as transformers adds them (./added-tokens.ts).
 *
 * Lower-casing precedence (first that applies): `disableLowerCase` option (true → keep case,
 * false → lower-case; KServe passes `do_lower_case = not --disable_lower_case`) >
 * `tokenizer_config.json` `do_lower_case` > the `tokenizer.json` normaliser as written >
 * lower-case (KServe's default). Accent stripping follows lower-casing unless `strip_accents` is set.
 *
 * Max length precedence: `maxLength` option > `tokenizer_config.json` `model_max_length` >
 * `config.json` `max_position_embeddings` > 512; never above `max_position_embeddings`.
 */
export async function loadTextTokenizer(
  files: TokenClassFiles,
  config: TokenClassConfig,
  options: TextTokenizerOptions = {},
): Promise<TextTokenizer> {
  const tokConfig = await tokenizerConfigOf(files);
  const { maxLength, maxLengthSource } = resolveMaxLength(options.maxLength, tokConfig.model_max_length, config.max_position_embeddings);
  let lowercase: boolean | undefined;
  let lowercaseSource: LowerCaseSource | undefined;
  if (options.disableLowerCase !== undefined) {
    lowercase = !options.disableLowerCase;
    lowercaseSource = 'option';
  } else if (tokConfig.do_lower_case !== undefined) {
    lowercase = tokConfig.do_lower_case;
    lowercaseSource = 'tokenizer_config';
  }
  // AutoTokenizer's class: tokenizer_config.json's, else the model type's (an XLM-R repo that names none is still XLMRobertaTokenizer).
  const tokenizerClass = tokConfig.tokenizer_class ?? classOfModelType(config.model_type);
  // A tokenizer.json (with the pipeline of a class transformers 5 builds itself), or the one transformers makes of a
  // SentencePiece model; else BERT's vocab.txt.
  const source: { json: Record<string, unknown>; path: string; name: 'tokenizer.json' | SentencePieceFile | 'vocab.json' } | undefined = files.tokenizerJson
    ? { json: asClassBuildsIt(await readJsonObjectFile(files.tokenizerJson, () => 'is not a tokenizer.json object'), tokenizerClass, tokConfig), path: files.tokenizerJson, name: 'tokenizer.json' }
    : files.vocabTxt === undefined && files.spmModel !== undefined
      ? await spmTokenizerJson(files.spmModel, config, tokConfig)
      : files.vocabTxt === undefined && files.bpeVocab !== undefined
        ? await bpeTokenizerJson(files.bpeVocab, config, tokConfig)
        : undefined;
  if (lowercaseSource === undefined) {
    lowercaseSource = source?.name ?? 'default';
  }
  const native = options.tokenizerEngine === 'tokenizers';
  const addSpecialTokens = options.addSpecialTokens ?? true;
  let tokenizer: Tokenizer;
  if (source !== undefined) {
    const { json, path } = source;
    checkTokenizerModel(json, path, options.embeddingRows);
    const normalizer = json.normalizer as Record<string, unknown> | null | undefined;
    if (lowercase !== undefined && !honoursLowerCase(json, tokenizerClass)) {
      // transformers' RoBERTa/XLM-R/GPT-2-style tokenizers take no do_lower_case: KServe's flag has no effect there.
      lowercase = undefined;
      lowercaseSource = source.name;
    }
    if (lowercase === undefined) {
      lowercase = normalizerLowercases(normalizer);
    } else {
      json.normalizer = withLowercase(normalizer, lowercase);
    }
    // A tokenizer.json holds its added tokens; one inferkit makes of a SentencePiece model or vocab.json gets the repo's.
    const extra = source.name === 'tokenizer.json' ? [] : await readExtraAddedTokens(files, tokConfig);
    const spec = native || extra.length > 0 ? undefined : bertSpecFromTokenizerJson(json);
    if (typeof spec === 'object') {
      return withEncoder(createBertWordPiece(spec), { lowercase, lowercaseSource, maxLength, maxLengthSource, addSpecialTokens });
    }
    tokenizer = fromJson(json, path);
    withExtraTokens(tokenizer, extra, options.embeddingRows);
  } else {
    lowercase ??= true;
    const vocabPath = files.vocabTxt ?? '';
    const vocab = await readVocabText(vocabPath);
    checkVocabSize(vocab.size, vocabPath, options.embeddingRows);
    // Added tokens past the vocabulary (or at other ids than its own) need the native tokenizer's added vocabulary.
    const extra = (await readExtraAddedTokens(files, tokConfig)).filter((t) => vocab.get(t.content) !== t.id);
    const spec = native || extra.length > 0 ? undefined : bertSpecFromVocab(vocab, tokConfig, lowercase);
    if (typeof spec === 'object') {
      return withEncoder(createBertWordPiece(spec), { lowercase, lowercaseSource, maxLength, maxLengthSource, addSpecialTokens });
    }
    tokenizer = await fromVocab(vocabPath, tokConfig, lowercase);
    withExtraTokens(tokenizer, extra, options.embeddingRows);
  }
  tokenizer.disablePadding();
  tokenizer.setTruncation(maxLength);
  return {
    lowercase,
    lowercaseSource,
    maxLength,
    maxLengthSource,
    engine: 'tokenizers',
    encode: async (texts, details) => {
      const encodings = await tokenizer.encodeBatch([...texts], { addSpecialTokens });
      return encodings.map((e, i) => toEncoded(texts[i], e, details));
    },
  };
}

/**
 * tokenizer_config.json as transformers 5.18 (what KServe's recorded server ran) reads it with `special_tokens_map.json`
 * for a repo without tokenizer.json (`PreTrainedTokenizerBase._from_pretrained`): a config that has
 * `added_tokens_decoder` (saved by transformers 4.34 or later) is taken alone, and the map is not read; an older config
 * takes each special token the map names (`unk_token`, `cls_token`, …) over its own. The map's
 * `additional_special_tokens` fills in only where the config has none.
 */
async function tokenizerConfigOf(files: TokenClassFiles): Promise<TokenizerConfig> {
  const tokConfig = files.tokenizerConfig ? await readJsonFile(files.tokenizerConfig, TokenizerConfigSchema) : {};
  if (files.specialTokensMap === undefined || tokConfig.added_tokens_decoder !== undefined) {
    return tokConfig;
  }
  const map = await readJsonFile(files.specialTokensMap, SpecialTokensMapSchema);
  const named = Object.fromEntries(SPECIAL_KEYS.filter((k) => map[k] !== undefined && map[k] !== null).map((k) => [k, map[k]]));
  return { ...map, ...tokConfig, ...named };
}

/** Adds the repo's `extra` added tokens to `tokenizer` (./added-tokens.ts); ids past the model's embedding rows fail naming both sizes. */
function withExtraTokens(tokenizer: Tokenizer, extra: readonly ExtraAddedToken[], embeddingRows: number | undefined): void {
  if (extra.length > 0) {
    checkVocabSize(addExtraTokens(tokenizer, extra), extra[extra.length - 1].file, embeddingRows);
  }
}

type TokenizerSettings = Pick<TextTokenizer, 'lowercase' | 'lowercaseSource' | 'maxLength' | 'maxLengthSource'> & { addSpecialTokens: boolean };

function withEncoder(encoder: BertWordPieceEncoder, settings: TokenizerSettings): TextTokenizer {
  const { addSpecialTokens, ...rest } = settings;
  const encodeSync = (texts: readonly string[], details: boolean): EncodedText[] =>
    texts.map((text) => encoder(text, { maxLength: settings.maxLength, addSpecialTokens, details }));
  return {
    ...rest,
    engine: 'wordpiece',
    encodeSync,
    encode: (texts, details) => {
      try {
        return Promise.resolve(encodeSync(texts, details));
      } catch (e) {
        return Promise.reject(e as Error);
      }
    },
  };
}

async function readVocabText(path: string): Promise<Map<string, number>> {
  try {
    return await readVocabTxt(path);
  } catch (cause) {
    throw new InferkitError('model_load_failed', `Could not read the vocabulary ${path}: ${(cause as Error).message}`, { cause });
  }
}

function resolveMaxLength(
  option: number | undefined,
  modelMax: number | undefined,
  positions: number | undefined,
): { maxLength: number; maxLengthSource: MaxLengthSource } {
  if (option !== undefined) {
    if (!Number.isInteger(option) || option < 2) {
      throw new InferkitError('config', `maxLength must be an integer ≥ 2 (room for [CLS] and [SEP]), got ${option}`);
    }
    if (positions !== undefined && option > positions) {
      throw new InferkitError('config', `maxLength ${option} exceeds the model's max_position_embeddings ${positions}`);
    }
    return { maxLength: option, maxLengthSource: 'option' };
  }
  if (modelMax !== undefined && modelMax < UNSET_MAX_LENGTH) {
    return { maxLength: Math.min(Math.floor(modelMax), positions ?? Infinity), maxLengthSource: 'tokenizer_config' };
  }
  if (positions !== undefined) {
    return { maxLength: positions, maxLengthSource: 'config' };
  }
  return { maxLength: 512, maxLengthSource: 'default' };
}

/**
 * The tokenizer.json transformers makes of a repo's SentencePiece model (./sentencepiece/): the model type's own file
 * (DeBERTa-v2/v3's `spm.model`, XLM-R's `sentencepiece.bpe.model`). Another model type, or a family's file under
 * another family's name, fails naming both.
 */
async function spmTokenizerJson(
  path: string,
  config: TokenClassConfig,
  tokConfig: Record<string, unknown>,
): Promise<{ json: Record<string, unknown>; path: string; name: SentencePieceFile }> {
  const family = sentencePieceFamily(config.model_type);
  if (family === undefined) {
    throw new InferkitError(
      'model_load_failed',
      `${path}: inferkit reads a SentencePiece model for the config.json model_types ${sentencePieceFamilies()} only, and this model's model_type is ${JSON.stringify(config.model_type ?? null)}: its repo needs a tokenizer.json`,
      { param: 'model_type' },
    );
  }
  const name = basename(path);
  if (name !== family.file) {
    throw new InferkitError(
      'model_load_failed',
      `${path}: transformers' ${family.tokenizerClass} (config.json model_type ${JSON.stringify(config.model_type)}) reads ${family.file}, and this repo has ${name}: its repo needs a tokenizer.json or ${family.file}`,
      { param: 'model_type' },
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (cause) {
    throw new InferkitError('model_load_failed', `Could not read ${path}: ${(cause as Error).message}`, { cause });
  }
  return { json: family.build(readSentencePieceModel(bytes, path), tokConfig, path), path, name: family.file };
}

/** The model types whose tokenizer transformers builds from `vocab.json` + `merges.txt` (byte-level BPE), as inferkit does (./byte-level-bpe/). */
const BPE_VOCAB_MODEL_TYPES: readonly string[] = ['roberta'];

/** The tokenizer.json transformers makes of a RoBERTa repo's `vocab.json` + `merges.txt`; another model type fails naming it. */
async function bpeTokenizerJson(files: { vocab: string; merges: string }, config: TokenClassConfig, tokConfig: Record<string, unknown>): Promise<{ json: Record<string, unknown>; path: string; name: 'vocab.json' }> {
  if (!BPE_VOCAB_MODEL_TYPES.includes(config.model_type ?? '')) {
    throw new InferkitError(
      'model_load_failed',
      `${files.vocab}: inferkit reads vocab.json + merges.txt for the config.json model_type ${BPE_VOCAB_MODEL_TYPES.map((t) => JSON.stringify(t)).join(', ')} only, and this model's model_type is ${JSON.stringify(config.model_type ?? null)}: its repo needs a tokenizer.json`,
      { param: 'model_type' },
    );
  }
  return { json: await robertaTokenizerJson(files.vocab, files.merges, tokConfig), path: files.vocab, name: 'vocab.json' };
}

/** transformers' tokenizer class for a config.json `model_type`, where it decides lower-casing (see honoursLowerCase). */
function classOfModelType(modelType: unknown): string | undefined {
  if (typeof modelType !== 'string') {
    return undefined;
  }
  return sentencePieceFamily(modelType)?.tokenizerClass ?? (Object.hasOwn(MODEL_TYPE_TOKENIZER_CLASSES, modelType) ? MODEL_TYPE_TOKENIZER_CLASSES[modelType] : undefined);
}

/** AutoTokenizer's classes of the model types whose tokenizer takes no `do_lower_case` and may lack a ByteLevel pre-tokenizer to show it. */
const MODEL_TYPE_TOKENIZER_CLASSES: Readonly<Record<string, string>> = { roberta: 'RobertaTokenizer', bart: 'BartTokenizer', longformer: 'LongformerTokenizer' };

function fromJson(json: Record<string, unknown>, path: string): Tokenizer {
  // The parts tokenizers aborts the whole process on, where it returns an error for any other bad part.
  const aborts = tokenizerAbortProblem(json);
  if (aborts !== undefined) {
    throw new InferkitError('model_load_failed', `Could not load the tokenizer ${path}: ${aborts}`);
  }
  try {
    return tokenizers.Tokenizer.fromString(JSON.stringify(json));
  } catch (cause) {
    throw new InferkitError('model_load_failed', `Could not load the tokenizer ${path}: ${(cause as Error).message}`, { cause });
  }
}

type NormalizerJson = Record<string, unknown> | null | undefined;

function normalizerLowercases(n: NormalizerJson): boolean {
  if (!n) {
    return false;
  }
  if (n.type === 'BertNormalizer') {
    return n.lowercase === true;
  }
  if (n.type === 'Lowercase') {
    return true;
  }
  if (n.type === 'Sequence' && Array.isArray(n.normalizers)) {
    return n.normalizers.some((m) => normalizerLowercases(m as NormalizerJson));
  }
  return false;
}

/** The normaliser with lower-casing switched on or off (BertNormalizer flag, or a Lowercase step). */
function withLowercase(n: NormalizerJson, lowercase: boolean): NormalizerJson {
  if (n?.type === 'BertNormalizer') {
    return { ...n, lowercase };
  }
  const steps = !n ? [] : n.type === 'Sequence' && Array.isArray(n.normalizers) ? (n.normalizers as NormalizerJson[]) : [n];
  const bert = steps.find((s) => s?.type === 'BertNormalizer');
  if (bert) {
    return { type: 'Sequence', normalizers: steps.map((s) => (s === bert ? { ...s, lowercase } : s)) };
  }
  const rest = steps.filter((s) => s?.type !== 'Lowercase');
  // First, as transformers' DebertaV2Tokenizer puts it: before NFC (lower-cased then composed differs for e.g. 'T\u0308\u0301').
  const out = lowercase ? [{ type: 'Lowercase' }, ...rest] : rest;
  return out.length === 0 ? null : { type: 'Sequence', normalizers: out };
}

async function fromVocab(vocabPath: string, tc: Record<string, unknown>, lowercase: boolean): Promise<Tokenizer> {
  const unk = specialTokenText(tc.unk_token, '[UNK]');
  const cls = specialTokenText(tc.cls_token, '[CLS]');
  const sep = specialTokenText(tc.sep_token, '[SEP]');
  const specials = [unk, cls, sep, specialTokenText(tc.pad_token, '[PAD]'), specialTokenText(tc.mask_token, '[MASK]')];
  let tokenizer: Tokenizer;
  try {
    tokenizer = new tokenizers.Tokenizer(await tokenizers.WordPiece.fromFile(vocabPath, { unkToken: unk }));
  } catch (cause) {
    throw new InferkitError('model_load_failed', `Could not read the vocabulary ${vocabPath}: ${(cause as Error).message}`, { cause });
  }
  const stripAccents = typeof tc.strip_accents === 'boolean' ? tc.strip_accents : lowercase;
  const chinese = typeof tc.tokenize_chinese_chars === 'boolean' ? tc.tokenize_chinese_chars : true;
  tokenizer.setNormalizer(tokenizers.bertNormalizer({ cleanText: true, handleChineseChars: chinese, stripAccents, lowercase }));
  tokenizer.setPreTokenizer(tokenizers.bertPreTokenizer());
  const clsId = tokenizer.tokenToId(cls);
  const sepId = tokenizer.tokenToId(sep);
  if (clsId === null || sepId === null) {
    throw new InferkitError('model_load_failed', `The vocabulary ${vocabPath} lacks ${clsId === null ? cls : sep}`);
  }
  tokenizer.setPostProcessor(tokenizers.bertProcessing([sep, sepId], [cls, clsId]));
  tokenizer.addSpecialTokens(specials.filter((s) => tokenizer.tokenToId(s) !== null));
  return tokenizer;
}

function toEncoded(text: string, e: Encoding, details: boolean): EncodedText {
  const truncated = e.getOverflowing().length > 0;
  if (!details) {
    return { ids: e.getIds(), truncated, offsets: [], codePointOffsets: [], wordIds: [] };
  }
  const codePoints = e.getOffsets();
  return {
    ids: e.getIds(),
    truncated,
    offsets: codePointToUtf16Offsets(text, codePoints),
    codePointOffsets: codePoints.map((o) => [o[0], o[1]]),
    wordIds: e.getWordIds().map((w) => (w === undefined ? null : w)),
  };
}
