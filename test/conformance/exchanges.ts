import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Folder of the recorded KServe answers and the model they were recorded on: `../shared/conformance/kserve-hf/` beside the checkout (as CI has it). */
export const CONFORMANCE_DIR = join(process.cwd(), '../shared/conformance/kserve-hf');

/** One recorded request/response pair of KServe's Hugging Face server (see the folder's README). */
export interface Exchange {
  id: string;
  kind: 'v1_predict' | 'v2_infer' | 'v1_runtime_arg' | 'v2_runtime_arg' | 'route' | 'bad_input' | 'forecast' | 'forecast_error';
  server_args: string[];
  request: { method: string; path: string; headers: Record<string, string>; body: unknown };
  response: { status: number; headers: Record<string, string>; body: unknown };
  notes?: string;
  own_tokens?: { counts: number[]; input_ids: number[][] };
  volatile?: string[];
  values_model_specific?: boolean;
  /** `[text index, position, gap]` of own-token positions whose top two logits differ by < 0.001 (either class is right). */
  near_ties?: Array<[number, number, number]>;
}

/** Every recorded exchange of `dir` (default: the BERT set), in file order. */
export function loadExchanges(dir: string = CONFORMANCE_DIR): Exchange[] {
  return readFileSync(join(dir, 'exchanges.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as Exchange);
}

/** The body to send: a string verbatim, an object as JSON, `null` as none. */
export function bodyText(e: Exchange): string | undefined {
  const b = e.request.body;
  return b === null ? undefined : typeof b === 'string' ? b : JSON.stringify(b);
}

/** The runtime args beyond `--model_name`, `--model_id`, `--task`, `--backend`. */
export function extraArgs(e: Exchange): string[] {
  return e.server_args.filter((a) => !/^--(model_name|model_id|task|backend)=/.test(a));
}
