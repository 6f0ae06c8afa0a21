import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { architectureOf, supportedArchitectures, type BuildableFamily } from '../checkpoint/architectures.js';
import { InferkitError } from '../errors.js';
import { TOKEN_CLASSIFICATION_GRAPHS } from '../hub/file-spec.js';
import { parseModelRef } from '../hub/parse-model-ref.js';
import { baselineOf } from './baseline-args.js';
import type { ServeTask } from './model-task.js';
import type { RuntimeConfig } from './runtime-config.js';

/** Hub ids whose layout is known before any download: the family inferkit builds, or why it cannot. */
const KNOWN_HUB_MODELS: ReadonlyArray<{ id: RegExp; family?: BuildableFamily; why?: string }> = [
  { id: /^google\/timesfm-2\.0-500m-pytorch$/i, family: 'timesfm-2.0' },
  { id: /^google\/timesfm-2\.5-200m-transformers$/i, family: 'timesfm-2.5' },
  { id: /^amazon\/chronos-bolt-(tiny|mini|small|base)$/i, family: 'chronos-bolt' },
  { id: /^amazon\/chronos-2$/i, family: 'chronos-2' },
  {
    id: /^google\/timesfm-(1\.0-200m(-pytorch)?|2\.0-500m-jax|2\.5-200m-(pytorch|flax))$/i,
    why: "is published in the timesfm library's own layout, not transformers' (KServe's AutoModelForTimeSeriesPrediction cannot load it either); use google/timesfm-2.0-500m-pytorch or google/timesfm-2.5-200m-transformers",
  },
];

/** What {@link modelBuildFindings} found: errors fail the service, warnings are reported. */
export interface BuildFindings {
  errors: string[];
  warnings: string[];
}

/**
 * Whether inferkit can build the forecasting model a service names, decided before any download (messages
 * never quote the arg): a hub id inferkit knows → its family (an error when the id's layout is one no builder
 * reads); another `…timesfm…` id → a warning that only its `config.json`
 * will tell; a local folder with a `config.json` → its `architectures` through architectureOf (an unknown one is
 * an error naming `architectures`, `model_type` and the supported list). A token-classification folder without
 * an ONNX graph: its `architectures` must be one inferkit builds. Baselines and other ids: nothing.
 */
export function modelBuildFindings(config: Pick<RuntimeConfig, 'modelId' | 'args'>, task: ServeTask | undefined): BuildFindings {
  const found: BuildFindings = { errors: [], warnings: [] };
  const source = config.modelId ?? config.args.values.model_dir;
  if (task === 'token_classification' && source !== undefined) {
    tokenFolderFindings(source, found);
    return found;
  }
  if (task !== 'time_series_forecast' || source === undefined || baselineOf(config.modelId) !== undefined) {
    return found;
  }
  let ref: ReturnType<typeof parseModelRef>;
  try {
    ref = parseModelRef(source);
  } catch {
    return found; // serve's own checks name a malformed id
  }
  if (ref.kind === 'local') {
    folderFindings(ref.path, found);
    return found;
  }
  const repo = ref.repo; // a const: tslab's TypeScript 5.0 drops the narrowing of `let ref` inside closures
  const known = KNOWN_HUB_MODELS.find((k) => k.id.test(repo));
  if (known?.why !== undefined) {
    found.errors.push(`--model_id ${known.why}`);
  } else if (known === undefined && /timesfm/i.test(ref.repo)) {
    found.warnings.push(`--model_id names a TimesFM repo inferkit does not know: it builds ${supportedArchitectures('forecast').filter((a) => a.startsWith('TimesFm')).join(' and ')} checkpoints (config.json + model.safetensors or pytorch_model.bin); its config.json decides at load`);
  }
  return found;
}

function folderFindings(dir: string, found: BuildFindings): void {
  const path = join(dir, 'config.json');
  if (!existsSync(path)) {
    return; // a folder on the serving machine only, or one serve's own checks reject
  }
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    found.errors.push('the model folder\'s config.json is not readable JSON');
    return;
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    found.errors.push('the model folder\'s config.json is not a JSON object');
    return;
  }
  const c = config as Record<string, unknown>;
  if (!Array.isArray(c.architectures) && c.chronos_config !== undefined) {
    return; // an older Chronos-Bolt export
  }
  try {
    // Every family architectureOf names has a builder (builders.ts): a known architecture is enough.
    architectureOf(c, 'the model folder', 'forecast');
  } catch (e) {
    if (!(e instanceof InferkitError)) {
      throw e;
    }
    found.errors.push(e.message);
  }
}

/**
 * A local token-classification folder without a published ONNX graph: its `config.json` must name an
 * architecture inferkit builds (a folder with an ONNX graph loads whatever its architecture).
 */
function tokenFolderFindings(source: string, found: BuildFindings): void {
  let ref: ReturnType<typeof parseModelRef>;
  try {
    ref = parseModelRef(source);
  } catch {
    return;
  }
  const folder = ref.kind === 'local' ? ref.path : undefined; // a const for the closure (tslab's TypeScript 5.0)
  if (folder === undefined || TOKEN_CLASSIFICATION_GRAPHS.some((p) => existsSync(join(folder, p)))) {
    return;
  }
  const path = join(folder, 'config.json');
  if (!existsSync(path)) {
    return;
  }
  try {
    architectureOf(JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>, 'the model folder (no ONNX graph, so inferkit builds one from config.json + model.safetensors or pytorch_model.bin)', 'token-classification');
  } catch (e) {
    found.errors.push(e instanceof Error ? e.message : String(e));
  }
}
