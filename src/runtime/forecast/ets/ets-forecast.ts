import type { EtsFit } from './ets-fit.js';
import { normalGenerator } from './random.js';

/** Point forecasts and either analytic standard deviations or simulated quantiles. */
export interface EtsForecast {
  /** Point forecast per step (the model's conditional mean for linear models, the median-free "point" otherwise). */
  point: Float64Array;
  /** Standard deviation per step when analytic (additive error, no multiplicative season). */
  sd?: Float64Array;
  /** Simulated quantiles `[levels × horizon]` when not analytic. */
  quantiles?: Float64Array;
}

/** Options of {@link etsForecast}. */
export interface EtsForecastOptions {
  /** Quantile levels to simulate (used only when intervals are simulated). */
  levels: readonly number[];
  /** Sample paths when simulating (fewer, down to 200, when horizon × paths would pass 4 million). @default 1000 */
  simulations?: number;
  /** Seed of the simulation (same seed, same quantiles). @default 42 */
  seed?: number;
}

/** Point forecasts from the fit's final states (damped trend: ℓ + (φ + … + φʰ)·b). */
export function etsPoint(fit: EtsFit, horizon: number): Float64Array {
  const { spec, final, params, n } = fit;
  const m = final.season.length;
  const phi = spec.trend === 'Ad' ? params.phi : 1;
  const out = new Float64Array(horizon);
  let damp = 0;
  let pw = 1;
  for (let h = 1; h <= horizon; h++) {
    pw *= phi;
    damp += spec.trend === 'N' ? 0 : pw;
    const base = final.level + damp * final.trend;
    const s = final.season[(n + h - 1) % m];
    out[h - 1] = spec.season === 'A' ? base + s : spec.season === 'M' ? base * s : base;
  }
  return out;
}

/**
 * Forecast of a fitted model. Additive error with no or additive season ("class 1"): exact
 * Gaussian variance σ²·(1 + Σ_{j<h} c_j²), c_j = α + β·(φ + … + φʲ) + γ·[j ≡ 0 mod m]. Every
 * other model: `simulations` seeded sample paths through the model's own recursions (errors
 * N(0, σ²), multiplied into μ for multiplicative error), reduced to quantiles per step.
 */
export function etsForecast(fit: EtsFit, horizon: number, options: EtsForecastOptions): EtsForecast {
  const point = etsPoint(fit, horizon);
  const { spec, params, m } = fit;
  if (spec.error === 'A' && spec.season !== 'M') {
    const sd = new Float64Array(horizon);
    const phi = spec.trend === 'Ad' ? params.phi : 1;
    let acc = 1;
    let damp = 0;
    let pw = 1;
    for (let h = 1; h <= horizon; h++) {
      sd[h - 1] = Math.sqrt(fit.sigma2 * acc);
      pw *= phi;
      damp += pw;
      const c = params.alpha + (spec.trend === 'N' ? 0 : params.beta * damp) + (spec.season === 'A' && h % m === 0 ? params.gamma : 0);
      acc += c * c;
    }
    return { point, sd };
  }
  return { point, quantiles: simulateQuantiles(fit, horizon, options) };
}

const MAX_SAMPLES = 4_000_000;

function simulateQuantiles(fit: EtsFit, horizon: number, options: EtsForecastOptions): Float64Array {
  const { spec, params, final, n } = fit;
  // Memory stays bounded (≤ 4M samples, 32 MB) on very long horizons: fewer paths, never below 200.
  const paths = Math.max(200, Math.min(options.simulations ?? 1000, Math.floor(MAX_SAMPLES / horizon)));
  const draw = normalGenerator(options.seed ?? 42);
  const sigma = Math.sqrt(fit.sigma2);
  const m = final.season.length;
  const phi = spec.trend === 'Ad' ? params.phi : 1;
  const beta = spec.trend === 'N' ? 0 : params.beta;
  const samples = new Float64Array(horizon * paths);
  const s = new Float64Array(m);
  for (let p = 0; p < paths; p++) {
    s.set(final.season);
    let l = final.level;
    let b = final.trend;
    for (let h = 0; h < horizon; h++) {
      const k = (n + h) % m;
      const base = l + phi * b;
      const st = s[k];
      const mu = spec.season === 'A' ? base + st : spec.season === 'M' ? base * st : base;
      const e = sigma * draw();
      const d = spec.error === 'M' ? mu * e : e;
      samples[h * paths + p] = mu + d;
      const dl = spec.season === 'M' ? d / st : d;
      l = base + params.alpha * dl;
      b = phi * b + beta * dl;
      if (spec.season === 'A') {
        s[k] = st + params.gamma * d;
      } else if (spec.season === 'M') {
        s[k] = st + (params.gamma * d) / base;
      }
    }
  }
  const out = new Float64Array(options.levels.length * horizon);
  for (let h = 0; h < horizon; h++) {
    const col = samples.subarray(h * paths, (h + 1) * paths).sort();
    options.levels.forEach((q, i) => {
      const pos = q * (paths - 1);
      const lo = Math.floor(pos);
      const hi = Math.min(paths - 1, lo + 1);
      out[i * horizon + h] = col[lo] + (pos - lo) * (col[hi] - col[lo]);
    });
  }
  return out;
}
