import { describe, expect, it } from 'vitest';
import { armaAutocovariance, armaFilter } from './arma-likelihood.js';
import { expandAr, expandMa, freeFromStationary, rootsOutside, stationaryFromFree } from './arima-spec.js';

/** Exact Gaussian −2·log-likelihood pieces (Σ z², log det) from the Cholesky factor of the full Toeplitz covariance. */
function bruteForce(w: Float64Array, phi: Float64Array, theta: Float64Array): { ssq: number; logdet: number } {
  const n = w.length;
  const { gamma } = armaAutocovariance(phi, theta, n);
  const L = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = gamma[i - j];
      for (let k = 0; k < j; k++) {
        s -= L[i * n + k] * L[j * n + k];
      }
      L[i * n + j] = i === j ? Math.sqrt(s) : s / L[j * n + j];
    }
  }
  const z = new Float64Array(n);
  let logdet = 0;
  for (let i = 0; i < n; i++) {
    let s = w[i];
    for (let k = 0; k < i; k++) {
      s -= L[i * n + k] * z[k];
    }
    z[i] = s / L[i * n + i];
    logdet += 2 * Math.log(L[i * n + i]);
  }
  return { ssq: z.reduce((a, v) => a + v * v, 0), logdet };
}

const w = Float64Array.from({ length: 80 }, (_, t) => Math.sin(t * 1.7) * 2 + Math.cos(t * 0.3) + ((t * 7919) % 13) / 13);
const MODELS: [string, number[], number[]][] = [
  ['AR(1)', [0.6], []],
  ['MA(1)', [], [-0.7]],
  ['ARMA(2,1)', [0.3, -0.2], [0.5]],
  ['seasonal (1,0,1)(1,0,1)[4]', Array.from(expandAr([0.2], [0.3], 4)), Array.from(expandMa([0.4], [-0.5], 4))],
  ['seasonal MA (0,0,0)(0,0,2)[12]', [], Array.from(expandMa([], [-0.6, 0.2], 12))],
];

describe('exact ARMA likelihood', () => {
  it.each(MODELS)('%s: the Kalman filter (both recursions) equals the full-covariance likelihood', (_name, phi, theta) => {
    const ref = bruteForce(w, Float64Array.from(phi), Float64Array.from(theta));
    const fast = armaFilter(w, Float64Array.from(phi), Float64Array.from(theta));
    const withGap = Float64Array.from(w);
    withGap[40] = Number.NaN;
    const dense = armaFilter(withGap, Float64Array.from(phi), Float64Array.from(theta), true);
    const refGap = bruteForce(Float64Array.from([...w.subarray(0, 40)]), Float64Array.from(phi), Float64Array.from(theta));
    expect(fast.ssq).toBeCloseTo(ref.ssq, 8);
    expect(fast.sumlog).toBeCloseTo(ref.logdet, 8);
    expect(dense.nu).toBe(79);
    // Up to the gap the dense filter sees the same values: its first 40 standardised residuals square-sum to the 40-value likelihood's.
    const first40 = (dense.residuals ?? new Float64Array(0)).subarray(0, 40).reduce((a, v) => a + v * v, 0);
    expect(first40).toBeCloseTo(refGap.ssq, 8);
  });

  it('the partial-autocorrelation map gives stationary coefficients and inverts', () => {
    const u = [1.5, -2, 0.3];
    const phi = stationaryFromFree(u);
    expect(rootsOutside(phi)).toBe(true);
    expect(Array.from(freeFromStationary(phi)).map((v) => +v.toFixed(9))).toEqual(u);
    expect(rootsOutside([1.2])).toBe(false);
    expect(rootsOutside([0.995], 1.01)).toBe(false);
  });
});
