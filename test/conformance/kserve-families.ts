import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Exchange } from './exchanges.js';

/** The conformance sets of KServe's Hugging Face server on each token-classification family (folder beside `kserve-hf`). */
export const FAMILY_SETS = [
  { family: 'bert', folder: 'kserve-hf', exchanges: 134 },
  { family: 'distilbert', folder: 'kserve-hf-distilbert', exchanges: 220 },
  { family: 'roberta', folder: 'kserve-hf-roberta', exchanges: 234 },
  { family: 'roberta', folder: 'kserve-hf-xlmr', exchanges: 234 },
  { family: 'deberta-v2', folder: 'kserve-hf-deberta-v3', exchanges: 220 },
] as const;

/** The absolute folder of a conformance set. */
export function setDir(folder: string): string {
  return join(process.cwd(), '../shared/conformance', folder);
}

/**
 * A copy of the set's `model/` without `onnx/` in a fresh temp folder, with an empty model cache beside it:
 * the model can then only load by building its graph from `config.json` + `model.safetensors`.
 */
export function safetensorsOnlyCopy(folder: string): { modelDir: string; cacheDir: string } {
  const root = mkdtempSync(join(tmpdir(), `inferkit-${folder}-`));
  const modelDir = join(root, 'model');
  cpSync(join(setDir(folder), 'model'), modelDir, { recursive: true, filter: (src) => !src.split(/[\\/]/).includes('onnx') });
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
