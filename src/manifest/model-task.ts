import { InferkitError } from '../errors.js';
import type { RuntimeConfig } from './runtime-config.js';

/** The tasks the server can serve; a loader table maps each to a loader. */
export type ServeTask = 'token_classification' | 'time_series_forecast';

const TASK_ALIASES: Readonly<Record<string, ServeTask>> = {
  token_classification: 'token_classification',
  ner: 'token_classification',
  time_series_forecast: 'time_series_forecast',
  time_series_forecasting: 'time_series_forecast',
  forecast: 'time_series_forecast',
  forecasting: 'time_series_forecast',
};

/**
 * The `--task` values of KServe's Hugging Face runtime (its `MLTask`, matched in any letter case but
 * with underscores only): the tasks a cluster serves, of which inferkit serves two.
 */
export const KSERVE_TASKS: readonly string[] = [
  'table_question_answering',
  'question_answering',
  'token_classification',
  'sequence_classification',
  'fill_mask',
  'text_generation',
  'text2text_generation',
  'multiple_choice',
  'text_embedding',
  'time_series_forecast',
];

/** The task inferkit serves for a `--task` value (any letter case, `-` or `_`, or an alias), else undefined. */
function servedTask(task: string): ServeTask | undefined {
  return TASK_ALIASES[task.toLowerCase().replace(/-/g, '_')];
}

/** Words in a model id or name that mark a forecasting model when `--task` is absent. */
const FORECAST_HINT = /chronos|forecast|timesfm|moirai|lag-llama|seasonal|naive|baseline|\btheta\b|\bauto-?ets\b|\bets\b|\bmstl\b/i;

/**
 * The task a service is served with. `--task` wins (`token_classification`, `time_series_forecast`,
 * any letter case, `-` or `_`); without it the task is `time_series_forecast` when the model id (or,
 * without one, the `--model_dir` folder), storageUri or model name mentions chronos, forecast, timesfm,
 * moirai, lag-llama, seasonal, naive, baseline, theta, auto-ets/autoets, ets or mstl, else
 * `token_classification`. An unknown `--task` throws `unsupported`.
 */
export function inferTask(config: Pick<RuntimeConfig, 'task' | 'modelId' | 'modelName' | 'storageUri'> & { modelDir?: string }): ServeTask {
  if (config.task !== undefined) {
    const task = servedTask(config.task);
    if (task === undefined) {
      throw new InferkitError(
        'unsupported',
        `--task=${config.task} is not served by inferkit; supported: token_classification, time_series_forecast`,
        { param: 'task' },
      );
    }
    return task;
  }
  // --model_dir names the model only without --model_id (as in KServe), so only then does its folder name count.
  const dir = config.modelId === undefined ? config.modelDir : undefined;
  const words = [config.modelId, dir, config.storageUri, config.modelName].filter((w): w is string => w !== undefined);
  return words.some((w) => FORECAST_HINT.test(w)) ? 'time_series_forecast' : 'token_classification';
}

/** What `inferkit validate` says of a `--task` value: an error (neither server knows it) or a warning. */
export interface TaskNote {
  severity: 'error' | 'warning';
  message: string;
}

/**
 * Checks a `--task` value against both servers a manifest may go to (messages never quote the value). A task neither KServe's runtime nor
 * inferkit knows is an error; a task only KServe serves (`fill_mask`…) is a warning that `inferkit serve`
 * will fail that service; an inferkit alias KServe does not accept (`ner`, `forecast`, hyphens) is a
 * warning naming the spelling that works on both. Undefined when all is well or there is no `--task`.
 */
export function taskNote(task: string | undefined): TaskNote | undefined {
  if (task === undefined) {
    return undefined;
  }
  const kserve = KSERVE_TASKS.find((t) => t === task.toLowerCase());
  const served = servedTask(task);
  if (served === undefined && kserve === undefined) {
    return { severity: 'error', message: `--task names a task neither KServe's Hugging Face runtime nor inferkit has; expected one of ${KSERVE_TASKS.join(', ')}` };
  }
  if (served === undefined) {
    return { severity: 'warning', message: `--task=${kserve} is served by KServe's runtime but not by inferkit serve (it serves token_classification and time_series_forecast): the service will fail there` };
  }
  if (kserve === undefined) {
    return { severity: 'warning', message: `--task is an inferkit alias that KServe's runtime does not accept: write --task=${served} so the manifest also deploys to a cluster` };
  }
  return undefined;
}
