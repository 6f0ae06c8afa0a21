import { InferkitError } from '../../errors.js';
import { autoArima, type AutoArimaOptions } from './arima/auto-arima.js';
import type { BaselineOptions } from './baseline-model.js';
import { autoEts, type AutoEtsOptions } from './ets/auto-ets.js';
import type { ForecastModel } from './forecast-model.js';
import { intermittent, type IntermittentMethod, type IntermittentOptions } from './intermittent/intermittent.js';
import { mstl, type MstlOptions } from './mstl/mstl.js';
import { seasonalNaive } from './seasonal-naive.js';
import { statEnsemble } from './stat-ensemble.js';
import { theta } from './theta.js';

/** The offline baselines that can be rebuilt from a name and plain options (in a worker thread, say). */
export type BaselineKind = 'seasonal-naive' | 'naive' | 'theta' | 'auto-ets' | 'mstl' | 'auto-arima' | 'stat-ensemble' | IntermittentMethod;

/** A baseline by name with its options: plain data, so it can cross to a worker thread. */
export type BaselineSpec =
  | { kind: 'seasonal-naive' | 'naive' | 'theta' | 'stat-ensemble'; options?: BaselineOptions }
  | { kind: 'auto-ets'; options?: AutoEtsOptions }
  | { kind: 'mstl'; options?: MstlOptions }
  | { kind: 'auto-arima'; options?: AutoArimaOptions }
  | { kind: IntermittentMethod; options?: IntermittentOptions };

/** The baseline kinds, for messages. */
export const BASELINE_KINDS: readonly BaselineKind[] = ['seasonal-naive', 'naive', 'theta', 'auto-ets', 'mstl', 'auto-arima', 'stat-ensemble', 'croston', 'croston-sba', 'tsb', 'adida', 'imapa'];

/** Builds the baseline `spec` names (the same model in any thread); throws `config` for an unknown kind. */
export function createBaseline(spec: BaselineSpec): ForecastModel {
  switch (spec.kind) {
    case 'seasonal-naive':
      return seasonalNaive(spec.options);
    case 'naive':
      return seasonalNaive({ ...spec.options, season: 1 });
    case 'theta':
      return theta(spec.options);
    case 'auto-ets':
      return autoEts(spec.options);
    case 'mstl':
      return mstl(spec.options);
    case 'auto-arima':
      return autoArima(spec.options);
    case 'stat-ensemble':
      return statEnsemble(spec.options);
    case 'croston':
    case 'croston-sba':
    case 'tsb':
    case 'adida':
    case 'imapa':
      return intermittent(spec.kind, spec.options);
    default:
      throw new InferkitError('config', `unknown baseline "${(spec as { kind: unknown }).kind}"; expected one of ${BASELINE_KINDS.join(', ')}`, { param: 'kind' });
  }
}
