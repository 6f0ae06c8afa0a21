import { InferkitError } from '../../../errors.js';
import { fitEtsSpec, fitEtsThorough, type EtsFit } from './ets-fit.js';
import { candidateSpecs, etsName, needsPositive, parseEtsName, type EtsSpec, type EtsTrend } from './ets-spec.js';

/** Options of {@link selectEts}. */
export interface SelectEtsOptions {
  /** Season length (1 = none). Seasonal models need at least two full seasons. @default 1 */
  season?: number;
  /** Fit only this model (`"AAdN"`, `"MAM"`…) instead of selecting. */
  model?: string;
  /** Consider damped trends. @default true */
  damped?: boolean;
  /** Trends considered in the selection (not for `model`). @default N, A and Ad */
  trends?: readonly EtsTrend[];
  /** Cap on likelihood evaluations per model fit. @default 150 × parameters searched */
  maxEvaluations?: number;
  /**
   * How many of the best candidates (by the AICc of a first, plain fit) are refitted to the
   * likelihood's optimum ({@link fitEtsThorough}: a second start for trended models, the initial
   * seasonal states searched for seasonal ones) before the lowest AICc is chosen; a model asked for
   * by `model` is always refitted. 0 = plain fits only. @default 3
   */
  refine?: number;
  /** Older switch: `true` refits at least the best candidate (see `refine`). */
  refineSeason?: boolean;
}

/** The selected model, every candidate's AICc, and notes on what was skipped and why. */
export interface EtsSelection {
  fit: EtsFit;
  /** `"MAdM"`-style name of the selected model. */
  model: string;
  /** Every candidate fitted, with its AICc (Infinity when it could not be fitted). */
  candidates: Array<{ model: string; aicc: number }>;
  /** Human-readable notes (e.g. multiplicative models skipped on non-positive data). */
  notes: string[];
}

/** Fewest values an ETS fit accepts (ETS(A,N,N) has 3 parameters and AICc needs n > np + 1). */
export const MIN_ETS_LENGTH = 5;

/**
 * AutoETS on one gap-free series: fits every stable member of the family the data allows
 * (multiplicative error or season only when all values are > 0; seasonal ones only when
 * season > 1 and n ≥ 2·season) by maximum likelihood and keeps the lowest AICc, as R's
 * `forecast::ets` does by default. Every candidate is first fitted with its initial seasonal states
 * from the heuristic; the `refine` (3) with the lowest AICc are then refitted thoroughly
 * ({@link fitEtsThorough}, kept when their likelihood is higher) and the lowest AICc wins — R's
 * optimum for the models that matter, at about twice the time of plain fits. Throws `invalid_request` naming `series` (too short, missing
 * or non-finite values) or `model` (unknown name, or a multiplicative model on non-positive data).
 */
export function selectEts(y: ArrayLike<number>, options: SelectEtsOptions = {}): EtsSelection {
  checkSeries(y);
  const m = options.season ?? 1;
  const positive = Array.prototype.every.call(y, (v: number) => v > 0);
  const seasonal = m > 1 && y.length >= 2 * m;
  const notes: string[] = [];
  let specs: EtsSpec[];
  if (options.model !== undefined) {
    const spec = parseEtsName(options.model);
    if (needsPositive(spec) && !positive) {
      throw new InferkitError('invalid_request', `model: ETS(${etsName(spec)}) is multiplicative and needs values > 0; the series has values ≤ 0`, { param: 'model' });
    }
    if (spec.season !== 'N' && !seasonal) {
      throw new InferkitError('invalid_request', `model: ETS(${etsName(spec)}) is seasonal and needs season > 1 and at least two seasons (${2 * m} values); got season ${m}, ${y.length} values`, { param: 'model' });
    }
    specs = [spec];
  } else {
    specs = candidateSpecs({ seasonal, positive, damped: options.damped, trends: options.trends });
    if (!positive) {
      notes.push('multiplicative error and season skipped: the series has values ≤ 0');
    }
    if (m > 1 && !seasonal) {
      notes.push(`seasonal models skipped: ${y.length} values is fewer than two seasons of ${m}`);
    }
  }
  const candidates: EtsSelection['candidates'] = [];
  let best: EtsFit | undefined;
  const fits: Array<EtsFit | undefined> = [];
  for (const spec of specs) {
    const fit = fitEtsSpec(y, spec, m, { maxEvaluations: options.maxEvaluations });
    fits.push(fit);
    candidates.push({ model: etsName(spec), aicc: fit?.aicc ?? Number.POSITIVE_INFINITY });
    if (fit !== undefined && (best === undefined || fit.aicc < best.aicc)) {
      best = fit;
    }
  }
  if (best === undefined) {
    const names = specs.map(etsName).join(', ');
    throw new InferkitError('invalid_request', `series: none of ${names} could be fitted to ${y.length} values (too short for its parameters, or no finite likelihood)`, { param: 'series' });
  }
  const refine = Math.max(options.model !== undefined || options.refineSeason === true ? 1 : 0, options.refine ?? 3);
  const ranked = fits.filter((f): f is EtsFit => f !== undefined).sort((a, b) => a.aicc - b.aicc);
  for (const fit of ranked.slice(0, refine)) {
    const refined = fitEtsThorough(y, fit.spec, m, { maxEvaluations: options.maxEvaluations });
    if (refined !== undefined && refined.loglik > fit.loglik) {
      const i = candidates.findIndex((c) => c.model === etsName(fit.spec));
      candidates[i] = { model: candidates[i].model, aicc: refined.aicc };
      if (refined.aicc < best.aicc) {
        best = refined;
      }
    }
  }
  return { fit: best, model: etsName(best.spec), candidates, notes };
}

function checkSeries(y: ArrayLike<number>): void {
  for (let t = 0; t < y.length; t++) {
    if (!Number.isFinite(y[t])) {
      throw new InferkitError('invalid_request', `series[${t}]: ETS needs finite values without gaps (got ${y[t]}); fill or drop missing values first`, { param: 'series' });
    }
  }
  if (y.length < MIN_ETS_LENGTH) {
    throw new InferkitError('invalid_request', `series: ETS needs at least ${MIN_ETS_LENGTH} values, got ${y.length}`, { param: 'series' });
  }
}
