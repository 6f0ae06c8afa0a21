import { InferkitError } from '../../../errors.js';
import { fitArima, rootsClearOf, type ArimaFit, type ArimaMethod } from './arima-fit.js';
import { arimaName, difference, type ArimaOrder } from './arima-spec.js';
import { isConstant, kpssDiffs, seasonalDiffs } from './unit-root.js';

/** Options of {@link selectArima}. */
export interface SelectArimaOptions {
  /** Seasonal period (1 = none). @default 1 */
  season?: number;
  /** Regressor columns, each as long as the series (regression with ARIMA errors). */
  xreg?: readonly ArrayLike<number>[];
  /** Non-seasonal differences; chosen by the KPSS test when absent. */
  d?: number;
  /** Seasonal differences; chosen by seasonal strength when absent. */
  D?: number;
  /**
   * Search with the conditional-sum-of-squares likelihood and refit the winner exactly (R's
   * `approximation`). @default series longer than 150 values or season above 12, as R
   */
  approximation?: boolean;
  /** Largest p + q + P + Q. @default 5 */
  maxOrder?: number;
  /** Most models fitted in the search. @default 94 */
  maxModels?: number;
  /** Start each neighbour's exact fit from the current best model's parameters (the four start models from CSS fits): about 20% less CPU, but it can settle in another local optimum (AirPassengers: AICc 1020.5 instead of R's 1018.2). @default false */
  warmStart?: boolean;
}

/** The chosen model and how the search went. */
export interface ArimaSelection {
  fit: ArimaFit;
  /** R's description, e.g. `ARIMA(0,1,1)(0,1,1)[12]`. */
  name: string;
  /** Models fitted in the search. */
  fitted: number;
}

const MAX_P = 5, MAX_Q = 5, MAX_SP = 2, MAX_SQ = 2;

/**
 * R's `auto.arima` (Hyndman & Khandakar 2008), stepwise: D from seasonal strength (> 0.64) when the
 * series holds two seasons, d from repeated KPSS tests on the seasonally differenced series, then
 * from ARIMA(2,d,2)(1,D,1), (0,d,0)(0,D,0), (1,d,0)(1,D,0), (0,d,1)(0,D,1) (with a constant — the
 * mean when d + D = 0, the drift when d + D = 1 — and (0,d,0)(0,D,0) without) it moves to the first
 * neighbour (P, Q, p, q, (P,Q) and (p,q) ±1, the constant toggled) with a lower AICc until none is
 * lower. Orders are capped by the length (p, q ≤ n/3; P, Q ≤ n/3m) and p + q + P + Q ≤ 5. A fit
 * with an AR or MA root within 1.01 of the unit circle is refused, as R does. With `approximation`
 * the search compares n·log σ² of conditional-sum-of-squares fits, and the best models are refitted
 * by exact likelihood in their order until one is acceptable. Series must be gap-free and finite;
 * throws `invalid_request` naming `series` for fewer than 3 values or a constant series, which have no model to select.
 */
export function selectArima(y: ArrayLike<number>, options: SelectArimaOptions = {}): ArimaSelection {
  const x = Float64Array.from(y);
  const n = x.length;
  if (n < 3 || isConstant(x)) {
    throw new InferkitError('invalid_request', `series: auto ARIMA needs at least 3 values that are not all equal (got ${n})`, { param: 'series' });
  }
  let m = options.season ?? 1;
  let maxSP = Math.min(MAX_SP, Math.floor(n / 3 / m));
  let maxSQ = Math.min(MAX_SQ, Math.floor(n / 3 / m));
  if (m <= 1 || maxSP + maxSQ === 0) {
    m = 1;
    maxSP = 0;
    maxSQ = 0;
  }
  const maxP = Math.min(MAX_P, Math.floor(n / 3));
  const maxQ = Math.min(MAX_Q, Math.floor(n / 3));
  const D = options.D ?? (m > 1 ? seasonalDiffs(x, m) : 0);
  const d = options.d ?? kpssDiffs(D > 0 ? difference(x, 0, D, m) : x, 2);
  const constantAllowed = d + D <= 1;
  const nstar = n - d - m * D;
  const approximation = options.approximation ?? (n > 150 || m > 12);
  const method: ArimaMethod = approximation ? 'css' : 'ml';
  const maxOrder = options.maxOrder ?? 5;
  const maxModels = options.maxModels ?? 94;
  const results = new Map<string, { order: ArimaOrder; ic: number; fit?: ArimaFit }>();
  const key = (o: ArimaOrder): string => `${o.p},${o.q},${o.P},${o.Q},${o.constant}`;
  const ic = (fit: ArimaFit): number => {
    if (!rootsClearOf(fit)) {
      return Number.POSITIVE_INFINITY;
    }
    if (fit.method === 'ml') {
      return fit.aicc;
    }
    const k = fit.beta.length + fit.phi.length + fit.theta.length + fit.sphi.length + fit.stheta.length + 1;
    return nstar - k - 1 > 0 ? nstar * Math.log(fit.sigma2) + 2 * k + (2 * k * (k + 1)) / (nstar - k - 1) : Number.POSITIVE_INFINITY;
  };
  const attempt = (o: ArimaOrder): number => {
    const k = key(o);
    const known = results.get(k);
    if (known !== undefined) {
      return known.ic;
    }
    let value = Number.POSITIVE_INFINITY;
    let fit: ArimaFit | undefined;
    try {
      fit = fitArima(x, o, { xreg: options.xreg, method, start: warm ? results.get(key(best))?.fit : undefined });
      value = ic(fit);
    } catch (e) {
      if (!(e instanceof InferkitError)) {
        throw e;
      }
    }
    results.set(k, { order: o, ic: Number.isNaN(value) ? Number.POSITIVE_INFINITY : value, fit });
    return value;
  };
  const order = (p: number, q: number, P: number, Q: number, constant: boolean): ArimaOrder => ({ p, d, q, P, D, Q, m, constant: constant && constantAllowed });
  let warm = false;
  let best = order(Math.min(2, maxP), Math.min(2, maxQ), Math.min(1, maxSP), Math.min(1, maxSQ), true);
  let bestIc = attempt(best);
  const consider = (o: ArimaOrder): boolean => {
    if (results.has(key(o)) || results.size >= maxModels) {
      return false;
    }
    const v = attempt(o);
    if (v < bestIc) {
      best = o;
      bestIc = v;
      return true;
    }
    return false;
  };
  consider(order(0, 0, 0, 0, true));
  if (maxP > 0 || maxSP > 0) {
    consider(order(Math.min(1, maxP), 0, Math.min(1, maxSP), 0, true));
  }
  if (maxQ > 0 || maxSQ > 0) {
    consider(order(0, Math.min(1, maxQ), 0, Math.min(1, maxSQ), true));
  }
  if (constantAllowed) {
    consider(order(0, 0, 0, 0, false));
  }
  const moves: [number, number, number, number][] = [
    [0, 0, -1, 0], [0, 0, 0, -1], [0, 0, 1, 0], [0, 0, 0, 1], [0, 0, -1, -1], [0, 0, -1, 1], [0, 0, 1, -1], [0, 0, 1, 1],
    [-1, 0, 0, 0], [0, -1, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [-1, -1, 0, 0], [-1, 1, 0, 0], [1, -1, 0, 0], [1, 1, 0, 0],
  ];
  warm = options.warmStart ?? false;
  let improved = true;
  while (improved && results.size < maxModels) {
    improved = false;
    for (const [dp, dq, dP, dQ] of moves) {
      const o = { ...best, p: best.p + dp, q: best.q + dq, P: best.P + dP, Q: best.Q + dQ };
      if (o.p < 0 || o.q < 0 || o.P < 0 || o.Q < 0 || o.p > maxP || o.q > maxQ || o.P > maxSP || o.Q > maxSQ || o.p + o.q + o.P + o.Q > maxOrder) {
        continue;
      }
      if (consider(o)) {
        improved = true;
        break;
      }
    }
    if (!improved && constantAllowed && consider({ ...best, constant: !best.constant })) {
      improved = true;
    }
  }
  const fit = approximation ? refitExactly(x, [...results.values()], options.xreg) : results.get(key(best))?.fit;
  if (fit === undefined || !Number.isFinite(fit.aicc)) {
    throw new InferkitError('internal', `auto ARIMA found no acceptable model among ${results.size}`, { param: 'series' });
  }
  return { fit, name: arimaName(fit.order, options.xreg?.length ?? 0), fitted: results.size };
}

/** The approximate search's models, best first, refitted by exact likelihood until one has a finite AICc and clear roots. */
function refitExactly(x: Float64Array, candidates: { order: ArimaOrder; ic: number }[], xreg: readonly ArrayLike<number>[] | undefined): ArimaFit | undefined {
  const ranked = candidates.filter((c) => Number.isFinite(c.ic)).sort((a, b) => a.ic - b.ic);
  for (const c of ranked) {
    try {
      const fit = fitArima(x, c.order, { xreg, method: 'ml' });
      if (Number.isFinite(fit.aicc) && rootsClearOf(fit)) {
        return fit;
      }
    } catch (e) {
      if (!(e instanceof InferkitError)) {
        throw e;
      }
    }
  }
  return undefined;
}
