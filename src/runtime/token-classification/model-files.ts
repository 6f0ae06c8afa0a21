import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { parseContract } from '../../contract/parse.js';
import { InferkitError } from '../../errors.js';
import { ADDED_TOKENS_FILE, BPE_MERGES_FILE, BPE_VOCAB_FILE, SENTENCEPIECE_MODEL_FILES, TOKEN_CLASSIFICATION_GRAPHS, TOKEN_CLASSIFICATION_QUANTIZED_GRAPHS, TOKENIZER_COMPANIONS, TOKENIZER_FILES } from '../../hub/file-spec.js';

/** The parts of `config.json` token classification reads. Other fields are kept. */
export const TokenClassConfigSchema = z.looseObject({
  id2label: z.record(z.string(), z.string()).optional(),
  max_position_embeddings: z.number().int().positive().optional(),
  /** Rows of the word embedding (the tokenizer's ids must stay below it). */
  vocab_size: z.number().int().positive().optional(),
  /** The id batches are padded with (RoBERTa's position ids count from it). */
  pad_token_id: z.number().int().nonnegative().nullable().optional(),
  model_type: z.string().optional(),
});
/** A parsed `config.json`. */
export type TokenClassConfig = z.output<typeof TokenClassConfigSchema>;

/** The parts of `tokenizer_config.json` token classification reads. Other fields are kept. */
export const TokenizerConfigSchema = z.looseObject({
  do_lower_case: z.boolean().optional(),
  strip_accents: z.boolean().nullable().optional(),
  tokenize_chinese_chars: z.boolean().optional(),
  model_max_length: z.number().positive().optional(),
  unk_token: z.unknown().optional(),
  cls_token: z.unknown().optional(),
  sep_token: z.unknown().optional(),
  pad_token: z.unknown().optional(),
  mask_token: z.unknown().optional(),
});
/** A parsed `tokenizer_config.json`. */
export type TokenizerConfig = z.output<typeof TokenizerConfigSchema>;
/** `special_tokens_map.json`: special token key → its text or an AddedToken object (and `additional_special_tokens`). */
export const SpecialTokensMapSchema = z.record(z.string(), z.unknown());

/** Local paths of a token-classification repo's files; absent optional files are undefined. */
export interface TokenClassFiles {
  dir: string;
  config: string;
  model: string;
  tokenizerJson: string | undefined;
  vocabTxt: string | undefined;
  /** A SentencePiece model (DeBERTa-v2/v3's `spm.model`, XLM-R's or CamemBERT's `sentencepiece.bpe.model`): read where the repo has neither tokenizer.json nor vocab.txt. */
  spmModel?: string | undefined;
  /** RoBERTa's byte-level BPE files (`vocab.json` and `merges.txt`): read where the repo has no other tokenizer file. */
  bpeVocab?: { vocab: string; merges: string } | undefined;
  tokenizerConfig: string | undefined;
  /**
   * `special_tokens_map.json` (the special tokens tokenizer_config.json does not name) and `added_tokens.json` (./added-tokens.ts):
   * looked for where the repo has no tokenizer.json, which holds both.
   */
  specialTokensMap?: string | undefined;
  addedTokensJson?: string | undefined;
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Options of {@link findTokenClassFiles}. */
export interface FindTokenClassFilesOptions {
  /** Take `onnx/model_quantized.onnx` as the model; its absence is an error (no silent fallback). @default false */
  quantized?: boolean;
  /** The graph to run, already resolved (a published ONNX file or one built from the checkpoint): no graph is looked for. */
  graphPath?: string;
}

/**
 * Finds the files of a token-classification repo in `dir`: `config.json`, `onnx/model.onnx`
 * (else `model.onnx`; with `quantized`, only `onnx/model_quantized.onnx`), `tokenizer.json`
 * and/or `vocab.txt` (or a SentencePiece model: DeBERTa-v2/v3's `spm.model`, XLM-R's `sentencepiece.bpe.model`; or RoBERTa's
 * `vocab.json` + `merges.txt`), optional `tokenizer_config.json`.
 * `known` (repo path → local path, as `resolveModel` returns) is consulted first.
 */
export async function findTokenClassFiles(
  dir: string,
  known: Record<string, string> = {},
  options: FindTokenClassFilesOptions = {},
): Promise<TokenClassFiles> {
  const pick = async (...paths: string[]): Promise<string | undefined> => {
    for (const p of paths) {
      const local = known[p] ?? join(dir, p);
      if (await exists(local)) {
        return local;
      }
    }
    return undefined;
  };
  const config = await pick('config.json');
  const model = options.graphPath !== undefined ? options.graphPath : options.quantized ? await pick(...TOKEN_CLASSIFICATION_QUANTIZED_GRAPHS) : await pick(...TOKEN_CLASSIFICATION_GRAPHS);
  // The tokenizer the hub would fetch: the first of TOKENIZER_FILES here, with its companions (TOKENIZER_COMPANIONS).
  // vocab.txt is read beside tokenizer.json too (the synchronous WordPiece engine).
  let first: string | undefined;
  let firstLocal: string | undefined;
  for (const p of TOKENIZER_FILES) {
    firstLocal = await pick(p);
    if (firstLocal !== undefined) {
      first = p;
      break;
    }
  }
  const tokenizerJson = first === 'tokenizer.json' ? firstLocal : undefined;
  const vocabTxt = first === 'vocab.txt' ? firstLocal : await pick('vocab.txt');
  const spmModel = first !== undefined && (SENTENCEPIECE_MODEL_FILES as readonly string[]).includes(first) ? firstLocal : undefined;
  const vocabJson = first === BPE_VOCAB_FILE ? firstLocal : undefined;
  const companions = new Map<string, string | undefined>();
  for (const c of first !== undefined ? (TOKENIZER_COMPANIONS[first] ?? []) : []) {
    companions.set(c, await pick(c));
  }
  const merges = companions.get(BPE_MERGES_FILE);
  const missing = [
    config ? undefined : 'config.json',
    model ? undefined : options.quantized ? `${TOKEN_CLASSIFICATION_QUANTIZED_GRAPHS.join(', ')} (asked for by quantized: true; load without it for the full-precision graph)` : `${TOKEN_CLASSIFICATION_GRAPHS[0]} (or ${TOKEN_CLASSIFICATION_GRAPHS.slice(1).join(', ')})`,
    first !== undefined ? undefined : `tokenizer.json (or vocab.txt, or a SentencePiece model: ${SENTENCEPIECE_MODEL_FILES.join(', ')}, or ${BPE_VOCAB_FILE} + ${BPE_MERGES_FILE})`,
    ...[...companions].filter(([, local]) => local === undefined).map(([c]) => `${c} (beside ${first ?? ''})`),
  ].filter((m): m is string => m !== undefined);
  if (!config || !model || missing.length > 0) {
    throw new InferkitError('model_load_failed', `Token-classification model in ${dir} lacks ${missing.join(', ')}`);
  }
  return {
    dir,
    config,
    model,
    tokenizerJson,
    vocabTxt,
    ...(spmModel !== undefined ? { spmModel } : {}),
    ...(vocabJson !== undefined && merges !== undefined ? { bpeVocab: { vocab: vocabJson, merges } } : {}),
    tokenizerConfig: await pick('tokenizer_config.json'),
    ...(tokenizerJson === undefined ? { specialTokensMap: await pick('special_tokens_map.json'), addedTokensJson: await pick(ADDED_TOKENS_FILE) } : {}),
  };
}

/** Reads and parses a JSON file with `schema`; `model_load_failed` names the file on any problem. */
export async function readJsonFile<S extends z.ZodType>(path: string, schema: S): Promise<z.output<S>> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (cause) {
    throw new InferkitError('model_load_failed', `Could not read ${path}: ${(cause as Error).message}`, { cause });
  }
  try {
    return parseContract(schema, value, path);
  } catch (cause) {
    throw new InferkitError('model_load_failed', (cause as Error).message, { cause });
  }
}

/**
 * A JSON file that must hold one object (`tokenizer.json`, `added_tokens.json`): unreadable or not JSON fails as
 * {@link readJsonFile} does; any other value fails with `${path} ${notObject(value)}`.
 */
export async function readJsonObjectFile(path: string, notObject: (value: unknown) => string): Promise<Record<string, unknown>> {
  const value = await readJsonFile(path, z.unknown());
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return value as Record<string, unknown>;
  }
  throw new InferkitError('model_load_failed', `${path} ${notObject(value)}`);
}

/**
 * Label names by class id from `config.json` `id2label`; ids without a name (or no `id2label`)
 * become `LABEL_<id>` like the hub's default, for `numLabels` classes.
 */
export function labelNames(config: TokenClassConfig, numLabels: number): string[] {
  const names: string[] = [];
  for (let i = 0; i < numLabels; i++) {
    names.push(config.id2label?.[String(i)] ?? `LABEL_${i}`);
  }
  return names;
}

/** Whether an added token takes the spaces on its left / right (transformers' `AddedToken` `lstrip` / `rstrip`). */
export interface StripFlags {
  lstrip: boolean;
  rstrip: boolean;
}

/**
 * The strip flags tokenizer_config.json gives the added token `content`: its `added_tokens_decoder` entry of that
 * content, else `value` (the special token's own key) when it is an AddedToken object; `fallback` (the class's
 * default) when neither says.
 */
export function addedTokenFlags(tokConfig: Record<string, unknown>, content: string, value: unknown, fallback: StripFlags): StripFlags {
  const flags = (v: unknown): StripFlags | undefined => {
    if (typeof v !== 'object' || v === null) {
      return undefined;
    }
    const t = v as { lstrip?: unknown; rstrip?: unknown };
    return typeof t.lstrip === 'boolean' || typeof t.rstrip === 'boolean' ? { lstrip: t.lstrip === true, rstrip: t.rstrip === true } : undefined;
  };
  const decoder = tokConfig.added_tokens_decoder;
  const entry = typeof decoder === 'object' && decoder !== null ? Object.values(decoder).find((t) => (t as { content?: unknown } | null)?.content === content) : undefined;
  return flags(entry) ?? flags(value) ?? fallback;
}

/** One special token a tokenizer class makes: its tokenizer_config.json key, its default text, its default strip flags (none). */
export type SpecialTokenSpec = readonly [key: string, fallback: string, flags?: StripFlags];

/**
 * The special added tokens a tokenizer class makes from tokenizer_config.json, as transformers adds them: each spec's
 * text (the config's, else the class default) once, in spec order; its id from the vocabulary (`idOf`), else the next
 * from `nextId` on; the strip flags the config gives it (addedTokenFlags), else the spec's. Sorted by id; `ids` maps
 * each special text to its id.
 */
export function specialAddedTokens(
  tokConfig: Record<string, unknown>,
  specs: readonly SpecialTokenSpec[],
  idOf: (content: string) => number | undefined,
  nextId: number,
): { added: Array<Record<string, unknown>>; ids: Map<string, number> } {
  const ids = new Map<string, number>();
  let next = nextId;
  const added: Array<Record<string, unknown>> = [];
  for (const [key, fallback, flags = { lstrip: false, rstrip: false }] of specs) {
    const content = specialTokenText(tokConfig[key], fallback);
    if (ids.has(content)) {
      continue;
    }
    const id = idOf(content) ?? next++;
    ids.set(content, id);
    added.push({ id, content, single_word: false, ...addedTokenFlags(tokConfig, content, tokConfig[key], flags), normalized: false, special: true });
  }
  added.sort((a, b) => (a.id as number) - (b.id as number));
  return { added, ids };
}

/** A special token's text from tokenizer_config (a string or an AddedToken `{content}` object). */
export function specialTokenText(value: unknown, fallback: string): string {
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'object' && value !== null && typeof (value as { content?: unknown }).content === 'string') {
    return (value as { content: string }).content;
  }
  return fallback;
}
