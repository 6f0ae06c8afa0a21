import type { Forecaster } from '../contract/predictor.js';
import { ValidationError } from '../errors.js';
import { localForecaster } from '../protocol/forecast/local-forecaster.js';
import type { ForecastModel } from '../runtime/forecast/forecast-model.js';

/** A model to forecast with: a Forecaster (in-kernel or remote) or a ForecastModel (served in the kernel). */
export type ModelLike = Forecaster | ForecastModel;
/** Several models: a list (named by their `name`) or a record whose keys name the output columns. */
export type ModelSet = readonly ModelLike[] | Readonly<Record<string, ModelLike>>;

function isModelLike(v: unknown): v is ModelLike {
  const o = v as { forecast?: unknown; predict?: unknown } | null;
  return typeof o === 'object' && o !== null && (typeof o.forecast === 'function' || typeof o.predict === 'function');
}

function toForecaster(m: ModelLike): Forecaster {
  return 'forecast' in m && typeof m.forecast === 'function' ? m : localForecaster(m as ForecastModel);
}

/** The forecasters of one model or a set, with their column names; `single` when one model was given bare. */
export function asForecasters(models: ModelLike | ModelSet): { single: boolean; forecasters: Array<[string, Forecaster]> } {
  if (isModelLike(models)) {
    return { single: true, forecasters: [[models.name, toForecaster(models)]] };
  }
  const entries: Array<[string, unknown]> = Array.isArray(models)
    ? (models as readonly unknown[]).map((m) => [isModelLike(m) ? m.name : '', m])
    : Object.entries(models as Record<string, unknown>);
  const bad = entries.findIndex(([, m]) => !isModelLike(m));
  if (entries.length === 0 || bad >= 0) {
    const message = entries.length === 0 ? 'expected at least one model' : `models[${JSON.stringify(entries[bad][0] || bad)}] is not a Forecaster or ForecastModel`;
    throw new ValidationError([{ path: 'models', message }]);
  }
  const names = entries.map(([n]) => n);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) {
    throw new ValidationError([{ path: 'models', message: `two models are named "${dup}"; pass a record ({ name: model }) to name the columns` }]);
  }
  return { single: false, forecasters: entries.map(([n, m]) => [n, toForecaster(m as ModelLike)]) };
}
