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
}

/** Every recorded exchange, in file order. */
export function loadExchanges(): Exchange[] {
  return readFileSync(join(CONFORMANCE_DIR, 'exchanges.jsonl'), 'utf8')
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
