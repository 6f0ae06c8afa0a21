import type { ForecastWarning, TimeSeriesInput } from '../../contract/forecast.js';
import type { ForecastTask } from '../../runtime/forecast/forecast-model.js';

const toFloat32 = (values: ReadonlyArray<number | null>): Float32Array => Float32Array.from(values, (v) => v ?? Number.NaN);

/**
 * The input as one {@link ForecastTask}: its variables (`targets`), then its covariates in key order — those
 * with no `future_covariates` entry are past-only, the others known-future (history and horizon values).
 */
export function taskOf(input: TimeSeriesInput, targets: Float32Array[]): ForecastTask {
  const future = input.future_covariates ?? {};
  const task: ForecastTask = { targets, pastCovariates: [], futureCovariates: [] };
  for (const [name, history] of Object.entries(input.past_covariates ?? {})) {
    const ahead = future[name];
    if (ahead === undefined) {
      task.pastCovariates.push(toFloat32(history));
    } else {
      task.futureCovariates.push({ history: toFloat32(history), future: toFloat32(ahead) });
    }
  }
  return task;
}

/**
 * The `covariates_ignored` warning for input `i` when it carries covariates and `model` cannot read them
 * (no `predictTasks`): the forecast is made from the series alone, and the answer says so instead of
 * dropping them silently. Undefined when the input has none.
 */
export function covariatesIgnored(input: TimeSeriesInput, i: number, model: string): ForecastWarning | undefined {
  const fields = (['past_covariates', 'future_covariates'] as const).filter((f) => Object.keys(input[f] ?? {}).length > 0);
  if (fields.length === 0) {
    return undefined;
  }
  const names = [...new Set(fields.flatMap((f) => Object.keys(input[f] ?? {})))];
  return {
    code: 'covariates_ignored',
    message: `model "${model}" cannot use covariates: inputs[${i}] ("${input.name}") was forecast from its series alone, without ${names.map((n) => `"${n}"`).join(', ')}`,
    param: `inputs[${i}].${fields[0]}`,
  };
}
