import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { piecesOfUnigram, writeSentencePieceModel } from '../fixtures/sentencepiece-writer.js';
import { toCamembertSentencePieceFolder, toXlmrSentencePieceFolder } from '../fixtures/xlmr-sentencepiece.js';
import { loadTextTokenizer } from '../../src/runtime/token-classification/load-text-tokenizer.js';
import type { Exchange } from './exchanges.js';
import { toVocabMergesFolder } from '../fixtures/roberta-vocab-merges.js';

/** The conformance sets of KServe's Hugging Face server on each token-classification family (folder beside `kserve-hf`). */
export const FAMILY_SETS = [
  { family: 'bert', folder: 'kserve-hf', exchanges: 134 },
  { family: 'distilbert', folder: 'kserve-hf-distilbert', exchanges: 220 },
  { family: 'roberta', folder: 'kserve-hf-roberta', exchanges: 234 },
  { family: 'roberta', folder: 'kserve-hf-xlmr', exchanges: 234 },
  { family: 'deberta-v2', folder: 'kserve-hf-deberta-v3', exchanges: 220 },
] as const;

/**
 * Sets replayed once more with their tokenizer.json swapped for the SentencePiece model it was made from (the same
 * pieces and scores, the specials marked as the family's file marks them): a repo that ships only spm.model, as
 * microsoft/deberta-v3-base does, or only sentencepiece.bpe.model, as older XLM-R fine-tunes do, must answer as KServe
 * does (transformers builds the same tokenizer from it).
 */
export const SPM_SETS = [
  { family: 'deberta-v2', folder: 'kserve-hf-deberta-v3', exchanges: 220, tokenizer: 'spm.model' },
  // XLM-R's file numbers `<mask>` last where the set's tokenizer.json has it 5th: the copy's embedding rows follow (toXlmrSentencePieceFolder).
  { family: 'roberta', folder: 'kserve-hf-xlmr', exchanges: 234, tokenizer: 'sentencepiece.bpe.model' },
  // The same model as a CamemBERT repo with only sentencepiece.bpe.model: fairseq's CamemBERT numbering, the copy's
  // embedding rows moved to it, CamemBERT's architecture and class (toCamembertSentencePieceFolder). transformers 5's
  // CamembertTokenizer builds XLM-R's pipeline, so KServe's XLM-R answers hold.
  { family: 'roberta', folder: 'kserve-hf-xlmr', exchanges: 234, tokenizer: 'sentencepiece.bpe.model (CamemBERT)' },
] as const;

/**
 * The RoBERTa set replayed once more from `vocab.json` + `merges.txt` alone (its tokenizer.json's vocabulary and merges
 * written as RobertaTokenizer saves them, then removed: test/fixtures/roberta-vocab-merges.ts), as older RoBERTa
 * fine-tunes publish their tokenizer.
 */
export const BPE_VOCAB_SETS = [{ family: 'roberta', folder: 'kserve-hf-roberta', exchanges: 234, tokenizer: 'vocab.json + merges.txt' }] as const;

/**
 * Sets replayed once more with their tokenizer.json rewritten as transformers 4 saved these families' files (most hub
 * checkpoints): its converter's normaliser and pre-tokenizer (XLM-R: collapse runs of spaces, Metaspace alone;
 * DeBERTa-v2: strip both ends, collapse runs of spaces, Metaspace), vocabulary and post-processor unchanged.
 * transformers 5 builds these classes' pipelines itself from such a file, so KServe 0.20 answers as recorded.
 */
export const TRANSFORMERS4_SETS = [
  { family: 'roberta', folder: 'kserve-hf-xlmr', exchanges: 234, tokenizer: 'tokenizer.json (transformers 4)' },
  { family: 'deberta-v2', folder: 'kserve-hf-deberta-v3', exchanges: 220, tokenizer: 'tokenizer.json (transformers 4)' },
] as const;

/** The set's tokenizer.json as transformers 4's converter wrote the family's pipeline (see TRANSFORMERS4_SETS). */
function asTransformers4(json: Record<string, unknown>, modelType: string): Record<string, unknown> {
  const collapse = { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' };
  const metaspace = { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true };
  if (modelType === 'xlm-roberta') {
    return { ...json, normalizer: { type: 'Sequence', normalizers: [collapse] }, pre_tokenizer: metaspace, decoder: metaspace };
  }
  if (modelType === 'deberta-v2') {
    return { ...json, normalizer: { type: 'Sequence', normalizers: [{ type: 'Strip', strip_left: true, strip_right: true }, collapse] }, pre_tokenizer: { type: 'Sequence', pretokenizers: [metaspace] }, decoder: metaspace };
  }
  throw new Error(`no transformers 4 pipeline written for model type ${modelType}`);
}

/** The texts an exchange sends (V1 `instances`/`inputs`, V2 `inputs[0].data`); none for other kinds. */
export function exchangeTexts(e: Exchange): string[] {
  const body = e.request.body as { instances?: unknown; inputs?: unknown } | null;
  const list = e.kind === 'v2_infer' ? (Array.isArray(body?.inputs) ? (body.inputs[0] as { data?: unknown } | undefined)?.data : undefined) : (body?.instances ?? body?.inputs);
  return Array.isArray(list) && list.every((t) => typeof t === 'string') ? (list as string[]) : [];
}

/**
 * An spm.model holds float32 scores where the set's tokenizer.json (what KServe was recorded with) holds doubles, so
 * a Unigram near-tie can segment a text otherwise. Returns a test: does the set's own tokenizer.json, scores rounded
 * to float32 and read through the tokenizer.json path (not the spm.model path under test), tokenize `text` otherwise
 * than `recordedIds` (KServe's; default: the set's tokenizer.json as written)? Such a text cannot be held to
 * KServe's recording of the doubles.
 */
export async function float32Retokenizes(folder: string): Promise<(text: string, disableLowerCase: boolean, recordedIds?: readonly number[]) => Promise<boolean>> {
  const model = join(setDir(folder), 'model');
  const json = JSON.parse(readFileSync(join(model, 'tokenizer.json'), 'utf8')) as { model: { vocab: Array<[string, number]> } };
  const config = JSON.parse(readFileSync(join(model, 'config.json'), 'utf8')) as { max_position_embeddings?: number };
  const load = async (vocab: Array<[string, number]>) => {
    const dir = mkdtempSync(join(tmpdir(), `inferkit-${folder}-tok-`));
    try {
      const tokenizerJson = join(dir, 'tokenizer.json');
      writeFileSync(tokenizerJson, JSON.stringify({ ...json, model: { ...json.model, vocab } }));
      // The set's own config files beside this tokenizer.json; no graph (only the tokenizer is loaded).
      const files = { dir: model, config: join(model, 'config.json'), model: '', tokenizerJson, vocabTxt: undefined, tokenizerConfig: join(model, 'tokenizer_config.json') };
      return await Promise.all([false, true].map((disableLowerCase) => loadTextTokenizer(files, config, { disableLowerCase })));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const asDoubles = await load(json.model.vocab);
  const asFloats = await load(json.model.vocab.map(([piece, score]) => [piece, Math.fround(score)]));
  const ids = async (t: Awaited<ReturnType<typeof load>>, text: string, disableLowerCase: boolean) => (await t[disableLowerCase ? 1 : 0].encode([text], false))[0].ids;
  return async (text, disableLowerCase, recordedIds) => {
    const expected = recordedIds ?? (await ids(asDoubles, text, disableLowerCase));
    const got = await ids(asFloats, text, disableLowerCase);
    return got.length !== expected.length || got.some((id, i) => id !== expected[i]);
  };
}

/** The absolute folder of a conformance set. */
export function setDir(folder: string): string {
  return join(process.cwd(), '../shared/conformance', folder);
}

/**
 * A copy of the set's `model/` without `onnx/` in a fresh temp folder, with an empty model cache beside it:
 * the model can then only load by building its graph from `config.json` + `model.safetensors`.
 */
export function safetensorsOnlyCopy(
  folder: string,
  tokenizer: 'tokenizer.json' | 'spm.model' | 'sentencepiece.bpe.model' | 'sentencepiece.bpe.model (CamemBERT)' | 'tokenizer.json (transformers 4)' | 'vocab.json + merges.txt' = 'tokenizer.json',
): { modelDir: string; cacheDir: string } {
  const root = mkdtempSync(join(tmpdir(), `inferkit-${folder}-`));
  const modelDir = join(root, 'model');
  cpSync(join(setDir(folder), 'model'), modelDir, { recursive: true, filter: (src) => !src.split(/[\\/]/).includes('onnx') });
  if (tokenizer === 'spm.model') {
    const json = JSON.parse(readFileSync(join(modelDir, 'tokenizer.json'), 'utf8')) as Parameters<typeof piecesOfUnigram>[0];
    writeFileSync(join(modelDir, 'spm.model'), writeSentencePieceModel({ pieces: piecesOfUnigram(json, ['[MASK]']), unkId: json.model.unk_id }));
    rmSync(join(modelDir, 'tokenizer.json'));
  } else if (tokenizer === 'sentencepiece.bpe.model') {
    toXlmrSentencePieceFolder(modelDir);
  } else if (tokenizer === 'sentencepiece.bpe.model (CamemBERT)') {
    toCamembertSentencePieceFolder(modelDir);
  } else if (tokenizer === 'vocab.json + merges.txt') {
    toVocabMergesFolder(modelDir);
  } else if (tokenizer === 'tokenizer.json (transformers 4)') {
    const path = join(modelDir, 'tokenizer.json');
    const config = JSON.parse(readFileSync(join(modelDir, 'config.json'), 'utf8')) as { model_type: string };
    writeFileSync(path, JSON.stringify(asTransformers4(JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>, config.model_type)));
  }
  return { modelDir, cacheDir: join(root, 'cache') };
}

/** `logits.json`: transformers' fp32 logits for single texts and one padded batch (see the set's README). */
export interface RecordedLogits {
  singles: Array<{ name: string; text: string; input_ids: number[]; logits: number[][] }>;
  padded_batch: { texts: string[]; attention_mask: number[][]; logits: number[][][] };
}

export function readLogits(folder: string): RecordedLogits {
  return JSON.parse(readFileSync(join(setDir(folder), 'logits.json'), 'utf8')) as RecordedLogits;
}

/** Why inferkit answers 200 where KServe answers 500 on RoBERTa and XLM-R texts over 512 tokens. */
export const LONG_TEXT_REASON =
  'RoBERTa/XLM-R positions start at pad_token_id + 1, so 514 position rows hold 512 tokens: inferkit truncates at 512 and answers ' +
  'what KServe answers with --max_model_len=512 (the `ml512` exchange of the same request); KServe truncates at 514 and answers 500';

/**
 * KServe's answer inferkit gives instead of a recorded 500 on a text over 512 tokens: the same request recorded
 * under `--max_model_len=512` (`v1-lc-mix-b` → `v1-ml512-mix-b`), sent with this exchange's request. Undefined
 * for an exchange that is no such 500.
 */
export function longTextCounterpart(e: Exchange, byId: ReadonlyMap<string, Exchange>): Exchange | undefined {
  if (e.response.status !== 500 || !/-(lc|nolc)-/.test(e.id)) {
    return undefined;
  }
  const twin = byId.get(e.id.replace(/-(lc|nolc)-/, '-ml512-'));
  return twin === undefined ? undefined : { ...twin, id: e.id, request: e.request, server_args: e.server_args };
}
