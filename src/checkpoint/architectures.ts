import { InferkitError } from '../errors.js';

/** What a built graph does. */
export type CheckpointTask = 'token-classification' | 'forecast';

/** One model family inferkit builds an ONNX graph for from its checkpoint. */
export interface BuildableArchitecture {
  /** inferkit's family id; also the graph cache's folder prefix. */
  family: string;
  task: CheckpointTask;
  /** `config.json` → `architectures[0]` values of this family, as transformers (or the model's own code) writes them. */
  architectures: readonly string[];
}

/**
 * The one list of architectures inferkit builds from `config.json` + safetensors (`validate` and every
 * loader read it). The builders live beside it in `families/`.
 */
export const BUILDABLE_ARCHITECTURES = [
  { family: 'chronos-bolt', task: 'forecast', architectures: ['ChronosBoltModelForForecasting'] },
  { family: 'chronos-2', task: 'forecast', architectures: ['Chronos2Model'] },
  { family: 'timesfm-2.0', task: 'forecast', architectures: ['TimesFmModelForPrediction'] },
  { family: 'timesfm-2.5', task: 'forecast', architectures: ['TimesFm2_5ModelForPrediction'] },
  { family: 'bert', task: 'token-classification', architectures: ['BertForTokenClassification'] },
  { family: 'distilbert', task: 'token-classification', architectures: ['DistilBertForTokenClassification'] },
  { family: 'roberta', task: 'token-classification', architectures: ['RobertaForTokenClassification', 'XLMRobertaForTokenClassification', 'CamembertForTokenClassification'] },
  { family: 'electra', task: 'token-classification', architectures: ['ElectraForTokenClassification'] },
  { family: 'deberta-v2', task: 'token-classification', architectures: ['DebertaV2ForTokenClassification'] },
] as const satisfies readonly BuildableArchitecture[];

/** A family id of {@link BUILDABLE_ARCHITECTURES}: `GRAPH_BUILDERS` (builders.ts) must have a builder for each. */
export type BuildableFamily = (typeof BUILDABLE_ARCHITECTURES)[number]['family'];

/** {@link BUILDABLE_ARCHITECTURES} as plain entries (names as strings, for lookups). */
const ENTRIES: readonly BuildableArchitecture[] = BUILDABLE_ARCHITECTURES;

/** Every architecture name inferkit builds, for error messages. */
export function supportedArchitectures(task?: CheckpointTask): string[] {
  return ENTRIES.filter((a) => task === undefined || a.task === task).flatMap((a) => a.architectures);
}

/**
 * The family of a `config.json`: by `architectures[0]`. An unknown or missing architecture is a
 * `model_load_failed` naming `architectures`, `model_type` and the supported list (for `task`, if given).
 */
export function architectureOf(config: Record<string, unknown>, source: string, task?: CheckpointTask): BuildableArchitecture {
  const names = Array.isArray(config.architectures) ? config.architectures.filter((a): a is string => typeof a === 'string') : [];
  const hit = ENTRIES.find((a) => names.some((n) => a.architectures.includes(n)) && (task === undefined || a.task === task));
  if (hit !== undefined) {
    return hit;
  }
  const got = `architectures ${JSON.stringify(names)}, model_type ${JSON.stringify(config.model_type ?? null)}`;
  throw new InferkitError(
    'model_load_failed',
    `${source}: config.json names ${got}; inferkit builds ${task === undefined ? '' : `${task} `}graphs for ${supportedArchitectures(task).join(', ')}`,
    { param: 'architectures' },
  );
}
