import { precompiledStepProblem } from './sentencepiece/precompiled-charsmap.js';

/**
 * Where `tokenizers` would abort the whole process on this tokenizer.json, or undefined. For these parts the binding
 * does not return an error: a Rust panic crosses it and ends the process (SIGABRT), taking every other served model
 * with it. Found by fuzzing the conformance sets' five tokenizer.json files (15,000 mutated files, 1–3 fields each, 27 aborts;
 * every other fault came back as an error):
 * - a Precompiled normaliser whose charsmap it cannot read or whose trie a text walks out of (at load or first use);
 * - a TemplateProcessing post-processor whose `single` template names a special token its `special_tokens` lacks (on
 *   the first text encoded; the `pair` template is never used here, as KServe never uses it for token classification);
 * - a BPE model with a `continuing_subword_prefix` and a merge whose second part is shorter (in UTF-8 bytes) than it.
 */
export function tokenizerAbortProblem(json: Record<string, unknown>): string | undefined {
  return (
    eachStep(json.normalizer, 'normalizers', 'normalizer', precompiledStepProblem) ??
    eachStep(json.post_processor, 'processors', 'post_processor', templateProblem) ??
    bpePrefixProblem(json.model)
  );
}

/** `check`'s first problem with `node` or, for a Sequence, any of its steps (`key`: `normalizers`, `processors`) at any depth. */
function eachStep(node: unknown, key: string, where: string, check: (step: unknown, where: string) => string | undefined): string | undefined {
  const steps = (node as { type?: unknown; [k: string]: unknown } | null | undefined)?.type === 'Sequence' ? (node as Record<string, unknown>)[key] : undefined;
  if (!Array.isArray(steps)) {
    return check(node, where);
  }
  for (const [i, step] of steps.entries()) {
    const problem = eachStep(step, key, `${where}.${key}[${i}]`, check);
    if (problem !== undefined) {
      return problem;
    }
  }
  return undefined;
}

function templateProblem(node: unknown, where: string): string | undefined {
  const p = node as { type?: unknown; single?: unknown; special_tokens?: unknown } | null | undefined;
  if (p?.type !== 'TemplateProcessing' || !Array.isArray(p.single) || typeof p.special_tokens !== 'object' || p.special_tokens === null) {
    return undefined;
  }
  const known = p.special_tokens as Record<string, unknown>;
  for (const piece of p.single as unknown[]) {
    const id = (piece as { SpecialToken?: { id?: unknown } } | null)?.SpecialToken?.id;
    if (typeof id === 'string' && !Object.hasOwn(known, id)) {
      return `${where}.single names the special token ${JSON.stringify(id)}, which ${where}.special_tokens lacks`;
    }
  }
  return undefined;
}

function bpePrefixProblem(model: unknown): string | undefined {
  const m = model as { type?: unknown; continuing_subword_prefix?: unknown; merges?: unknown } | null | undefined;
  const prefix = m?.continuing_subword_prefix;
  if (m?.type !== 'BPE' || typeof prefix !== 'string' || prefix.length === 0 || !Array.isArray(m.merges)) {
    return undefined;
  }
  const bytes = Buffer.byteLength(prefix);
  for (const [i, merge] of (m.merges as unknown[]).entries()) {
    const second = Array.isArray(merge) ? merge[1] : typeof merge === 'string' ? merge.split(' ')[1] : undefined;
    if (typeof second === 'string' && Buffer.byteLength(second) < bytes) {
      return `model.merges[${i}] joins ${JSON.stringify(second)}, shorter than model.continuing_subword_prefix ${JSON.stringify(prefix)}`;
    }
  }
  return undefined;
}
