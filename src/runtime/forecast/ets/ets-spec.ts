import { InferkitError } from '../../../errors.js';

/** Error type of an ETS model: additive or multiplicative. */
export type EtsError = 'A' | 'M';
/** Trend of an ETS model: none, additive, additive damped. */
export type EtsTrend = 'N' | 'A' | 'Ad';
/** Season of an ETS model: none, additive, multiplicative. */
export type EtsSeason = 'N' | 'A' | 'M';

/** One member of the ETS family (Hyndman et al. 2008), e.g. `{ error: 'M', trend: 'Ad', season: 'M' }` = ETS(M,Ad,M). */
export interface EtsSpec {
  error: EtsError;
  trend: EtsTrend;
  season: EtsSeason;
}

/** `"MAdM"`-style name of a spec (error, trend, season letters; `Ad` = damped). */
export function etsName(spec: EtsSpec): string {
  return `${spec.error}${spec.trend}${spec.season}`;
}

/**
 * Parses a name such as `"ANN"`, `"AAdA"` or `"MAM"` (case-insensitive; `"AdA"` may be written
 * `"ADA"`). Throws `invalid_request` naming `param` when it is not one of the family.
 */
export function parseEtsName(name: string, param = 'model'): EtsSpec {
  const m = /^([AM])(N|A|AD)([NAM])$/i.exec(name.trim());
  if (m === null) {
    throw new InferkitError('invalid_request', `${param}: "${name}" is not an ETS model; expected error A|M, trend N|A|Ad, season N|A|M (e.g. "ANN", "AAdA", "MAM")`, { param });
  }
  const trend = m[2].toUpperCase() === 'AD' ? 'Ad' : (m[2].toUpperCase() as 'N' | 'A');
  return { error: m[1].toUpperCase() as EtsError, trend, season: m[3].toUpperCase() as EtsSeason };
}

/**
 * True for the combinations R's `forecast::ets` excludes as numerically unstable: additive error
 * with multiplicative season (ANM, AAM, AAdM). Multiplicative trends are not in this family.
 */
export function isUnstable(spec: EtsSpec): boolean {
  return spec.error === 'A' && spec.season === 'M';
}

/** True when the model multiplies by a state or error, so it needs strictly positive data. */
export function needsPositive(spec: EtsSpec): boolean {
  return spec.error === 'M' || spec.season === 'M';
}

/** Options of {@link candidateSpecs}. */
export interface CandidateOptions {
  /** Consider seasonal models (a season > 1 and enough data). */
  seasonal: boolean;
  /** All values > 0 (multiplicative error and season allowed). */
  positive: boolean;
  /** Allow damped trends. @default true */
  damped?: boolean;
  /** Trends allowed at all. @default all three */
  trends?: readonly EtsTrend[];
}

/** The specs AutoETS compares: every stable combination the data allows. */
export function candidateSpecs(options: CandidateOptions): EtsSpec[] {
  const out: EtsSpec[] = [];
  for (const error of ['A', 'M'] as const) {
    for (const trend of ['N', 'A', 'Ad'] as const) {
      for (const season of ['N', 'A', 'M'] as const) {
        const spec = { error, trend, season };
        const excluded =
          isUnstable(spec) ||
          (!options.positive && needsPositive(spec)) ||
          (!options.seasonal && season !== 'N') ||
          (options.damped === false && trend === 'Ad') ||
          (options.trends !== undefined && !options.trends.includes(trend));
        if (!excluded) {
          out.push(spec);
        }
      }
    }
  }
  return out;
}
