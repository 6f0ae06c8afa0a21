import { join } from 'node:path';
import type { z } from 'zod';
import { parseContract } from '../../../contract/parse.js';
import { InferkitError } from '../../../errors.js';
import type { Checkpoint } from '../../safetensors.js';
import { checkedShape } from './checkpoint-ops.js';

/** The checkpoint's `config.json` parsed with `schema`; a missing or ill-typed field is `model_load_failed` naming it. */
export function encoderConfig<S extends z.ZodType>(ck: Checkpoint, schema: S): z.output<S> {
  try {
    return parseContract(schema, ck.config, join(ck.dir, 'config.json'));
  } catch (cause) {
    throw new InferkitError('model_load_failed', (cause as Error).message, { cause });
  }
}

/**
 * The tensor-name prefix of the base model (`bert.`, `roberta.` …): the first of `candidates` whose
 * `<candidate>.embeddings.word_embeddings.weight` the checkpoint holds, or `''` for a bare base model.
 */
export function modelPrefix(ck: Checkpoint, candidates: readonly string[]): string {
  for (const p of [...candidates.map((c) => `${c}.`), '']) {
    if (ck.has(`${p}embeddings.word_embeddings.weight`)) {
      return p;
    }
  }
  throw new InferkitError(
    'model_load_failed',
    `${ck.dir}: no word embeddings in the checkpoint (looked for ${candidates.map((c) => `${c}.embeddings.word_embeddings.weight`).join(', ')})`,
  );
}

/** Output classes of the token classifier `name` ([labels, hidden]); checked against config.json's `id2label`. */
export function labelsOf(ck: Checkpoint, name: string, hidden: number): number {
  if (!ck.has(name)) {
    throw new InferkitError('model_load_failed', `${ck.dir}: the checkpoint has no ${name}: not a token-classification checkpoint (a base model without its classifier head?)`, { param: name });
  }
  const labels = ck.info(name).shape[0];
  checkedShape(ck, name, [labels, hidden]);
  const id2label = ck.config.id2label;
  const named = id2label !== null && typeof id2label === 'object' ? Object.keys(id2label).length : undefined;
  if (named !== undefined && named !== labels) {
    throw new InferkitError('model_load_failed', `${ck.dir}: config.json id2label names ${named} labels, ${name} has ${labels} rows`, { param: 'id2label' });
  }
  return labels;
}
