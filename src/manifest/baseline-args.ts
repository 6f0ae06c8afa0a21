import { didYouMean } from './kserve-crd/did-you-mean.js';
import type { RuntimeArgs } from './parse-runtime-args.js';

/** The offline forecasting baselines a service can name by `--model_id`. */
export type BaselineName = 'seasonal-naive' | 'naive' | 'theta' | 'auto-ets' | 'mstl' | 'auto-arima' | 'stat-ensemble' | 'croston' | 'croston-sba' | 'tsb' | 'adida' | 'imapa';

/** `--model_id` values (after {@link baselineOf}'s normalisation) that name an offline baseline. */
const BASELINE_IDS: Readonly<Record<string, BaselineName>> = {
  'seasonal-naive': 'seasonal-naive',
  naive: 'naive',
  theta: 'theta',
  'auto-ets': 'auto-ets',
  autoets: 'auto-ets',
  ets: 'auto-ets',
  mstl: 'mstl',
  'auto-arima': 'auto-arima',
  autoarima: 'auto-arima',
  arima: 'auto-arima',
  'stat-ensemble': 'stat-ensemble',
  ensemble: 'stat-ensemble',
  croston: 'croston',
  'croston-sba': 'croston-sba',
  sba: 'croston-sba',
  tsb: 'tsb',
  adida: 'adida',
  imapa: 'imapa',
};

/**
 * inferkit's own runtime args (KServe has none of them) and the baselines that use each: `--season=N`
 * (season override; `naive` has none), `--seasonal_periods=48,336` (MSTL's periods) and `--max_context=N`
 * (AutoETS fits each series' last N values). No other model reads them, Chronos-Bolt included.
 */
export const BASELINE_ARGS: Readonly<Record<string, readonly BaselineName[]>> = {
  season: ['seasonal-naive', 'theta', 'auto-ets', 'mstl', 'auto-arima', 'stat-ensemble'],
  seasonal_periods: ['mstl'],
  max_context: ['auto-ets'],
};

/** The baselines by their own names, in {@link BASELINE_IDS}' order. */
const BASELINE_NAMES: readonly BaselineName[] = [...new Set(Object.values(BASELINE_IDS))];

/** A model id as {@link BASELINE_IDS} spells it: lower case, `-` for `_`, without `baseline/`. */
function baselineKey(modelId: string): string {
  return modelId.toLowerCase().replace(/_/g, '-').replace(/^baseline\//, '');
}

/** The baseline a model id names (any letter case, `-` or `_`, optionally `baseline/…`), else undefined. */
export function baselineOf(modelId: string | undefined): BaselineName | undefined {
  return modelId === undefined ? undefined : BASELINE_IDS[baselineKey(modelId)];
}

/**
 * A `--model_id=baseline/…` that names no baseline (`baseline/seasonal-naiv`): the `baseline/` prefix says
 * an offline baseline was meant, so it is a typo rather than a hub repo to fetch. Undefined otherwise.
 */
export function unknownBaselineProblem(modelId: string | undefined): BaselineArgProblem | undefined {
  if (modelId === undefined || !/^baseline\//i.test(modelId) || baselineOf(modelId) !== undefined) {
    return undefined;
  }
  const hint = didYouMean(baselineKey(modelId), BASELINE_NAMES);
  return {
    param: 'model_id',
    message: `--model_id=baseline/… names no baseline${hint !== undefined ? `; did you mean baseline/${hint}?` : ''} (baselines: ${BASELINE_NAMES.join(', ')})`,
  };
}

/** One baseline arg a service carries that its model would not use. */
export interface BaselineArgProblem {
  /** The arg, without dashes (`season`). */
  param: string;
  /** What is wrong and which models take the arg. */
  message: string;
}

/**
 * The baseline args ({@link BASELINE_ARGS}) a service carries that its model would not use, so that a
 * service asking for an effect it cannot have fails (its load; `inferkit validate`) instead of
 * silently serving without it: an arg its baseline does not take, any of them on a model that is no
 * baseline (`forecast: false` for a token-classification service), and MSTL's `--season` next to `--seasonal_periods` (the periods win). Empty when all is well.
 */
export function baselineArgProblems(config: { modelId?: string; args: RuntimeArgs }, forecast = true): BaselineArgProblem[] {
  const { values } = config.args;
  const baseline = forecast ? baselineOf(config.modelId) : undefined;
  const model = config.modelId === undefined ? 'this service\'s model' : `model "${config.modelId}"`;
  const problems: BaselineArgProblem[] = [];
  for (const [param, users] of Object.entries(BASELINE_ARGS)) {
    if (values[param] !== undefined && (baseline === undefined || !users.includes(baseline))) {
      const takers = users.length === 1 ? `baseline --model_id=${users[0]}` : `baselines --model_id=${users.slice(0, -1).join(', ')} and ${users[users.length - 1]}`;
      problems.push({ param, message: `--${param} is used only by the ${takers}; ${model} does not use it: remove the arg or change --model_id` });
    }
  }
  if (baseline === 'mstl' && values.season !== undefined && values.seasonal_periods !== undefined) {
    problems.push({ param: 'season', message: '--season with --seasonal_periods: mstl takes its periods from --seasonal_periods, not --season; set only one (--season=N alone is the single period N)' });
  }
  return problems;
}
