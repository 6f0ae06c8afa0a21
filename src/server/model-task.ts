import { InferkitError } from '../errors.js';
import type { RuntimeConfig } from '../manifest/runtime-config.js';
import type { ServeTask } from './model-loader.js';

const TASK_ALIASES: Readonly<Record<string, ServeTask>> = {
  token_classification: 'token_classification',
  ner: 'token_classification',
  time_series_forecast: 'time_series_forecast',
  time_series_forecasting: 'time_series_forecast',
  forecast: 'time_series_forecast',
  forecasting: 'time_series_forecast',
};

/** Words in a model id or name that mark a forecasting model when `--task` is absent. */
const FORECAST_HINT = /chronos|forecast|timesfm|moirai|lag-llama|seasonal|naive|baseline|\btheta\b|\bauto-?ets\b|\bets\b|\bmstl\b/i;

/**
 * The task a service is served with. `--task` wins (`token_classification`, `time_series_forecast`,
 * any letter case, `-` or `_`); without it the task is `time_series_forecast` when the model id,
 * storageUri or model name mentions chronos, forecast, timesfm, moirai, lag-llama, seasonal, naive,
 * baseline, theta, auto-ets/autoets, ets or mstl, else `token_classification`. An unknown `--task` throws `unsupported`.
 */
export function inferTask(config: Pick<RuntimeConfig, 'task' | 'modelId' | 'modelName' | 'storageUri'>): ServeTask {
  if (config.task !== undefined) {
    const task = TASK_ALIASES[config.task.toLowerCase().replace(/-/g, '_')];
    if (task === undefined) {
      throw new InferkitError(
        'unsupported',
        `--task=${config.task} is not served by inferkit; supported: token_classification, time_series_forecast`,
        { param: 'task' },
      );
    }
    return task;
  }
  const words = [config.modelId, config.storageUri, config.modelName].filter((w): w is string => w !== undefined);
  return words.some((w) => FORECAST_HINT.test(w)) ? 'time_series_forecast' : 'token_classification';
}
