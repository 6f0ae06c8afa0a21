/** Parsed runtime args: options with values and bare flags. */
export interface RuntimeArgs {
  /** `--key=value` and `--key value` options, key without dashes; the last repeated value wins. */
  values: Record<string, string>;
  /** Bare flags such as `disable_lower_case`. */
  flags: Set<string>;
}

/**
 * Boolean flags of KServe's Hugging Face runtime (argparse `store_true`): never followed by a value,
 * so `--disable_lower_case --model_id=x` and `--disable_lower_case x` both read it as a flag.
 */
export const RUNTIME_FLAGS: ReadonlySet<string> = new Set([
  'disable_lower_case',
  'disable_special_tokens',
  'return_probabilities',
  'return_raw_logits',
  'return_offsets_mapping',
  'return_token_type_ids',
  'trust_remote_code',
  'enable_docs_url',
  'enable_latency_logging',
]);

/**
 * Parses runtime args the way KServe's argparse does: `--key=value`, `--key value` (the next item, when it
 * does not start with `--` and `key` is not a known flag), and bare flags. A repeated option keeps its last
 * value, and a later value for a name overrides an earlier flag (and vice versa). Items that are not
 * options (no leading `--`) and are not consumed as a value are ignored. Unlike argparse, prefixes of
 * option names are not expanded.
 */
export function parseRuntimeArgs(args: readonly string[]): RuntimeArgs {
  const values: Record<string, string> = {};
  const flags = new Set<string>();
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (!arg.startsWith('--') || arg === '--') {
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq >= 0) {
      const key = arg.slice(2, eq);
      values[key] = arg.slice(eq + 1);
      flags.delete(key);
      continue;
    }
    const key = arg.slice(2);
    const next = args[i + 1];
    if (!RUNTIME_FLAGS.has(key) && next !== undefined && !next.startsWith('--')) {
      values[key] = next;
      flags.delete(key);
      i += 1;
    } else {
      flags.add(key);
      delete values[key];
    }
  }
  return { values, flags };
}
