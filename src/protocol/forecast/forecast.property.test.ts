import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FREQUENCIES } from '../../contract/enums.js';
import { ForecastResponseSchema, type ForecastRequestInput } from '../../contract/forecast.js';
import { isIsoTimestamp } from '../../contract/timestamp.js';
import { seasonalNaive } from '../../runtime/forecast/seasonal-naive.js';
import { theta } from '../../runtime/forecast/theta.js';
import { localForecaster } from './local-forecaster.js';

const value = fc.oneof({ weight: 5, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }) }, { weight: 1, arbitrary: fc.constant(null) });
const stamp = fc
  .record({ y: fc.integer({ min: 1900, max: 2100 }), mo: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 28 }), form: fc.constantFrom('', 'T10:30:00Z', 'T23:59:59.25+05:30') })
  .map(({ y, mo, d, form }) => `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}${form}`);
const input = fc.record(
  {
    width: fc.integer({ min: 0, max: 3 }), // 0 = univariate
    length: fc.integer({ min: 1, max: 30 }),
    frequency: fc.constantFrom(...FREQUENCIES, 'M', 'q', 'H'),
    start: stamp,
    seed: fc.array(value, { minLength: 90, maxLength: 90 }),
  },
  { requiredKeys: ['width', 'length', 'frequency', 'seed'] },
);
const request = fc.record(
  {
    inputs: fc.array(input, { minLength: 1, maxLength: 4 }),
    horizon: fc.integer({ min: 1, max: 40 }),
    quantiles: fc.uniqueArray(fc.double({ min: 0.001, max: 0.999, noNaN: true }), { maxLength: 5 }),
  },
  { requiredKeys: ['inputs', 'horizon'] },
);

describe('forecast (property)', () => {
  it('random valid requests get one output per input, shaped like the request', async () => {
    const models = [localForecaster(seasonalNaive()), localForecaster(theta())];
    await fc.assert(
      fc.asyncProperty(request, fc.integer({ min: 0, max: 1 }), async (r, which) => {
        const forecaster = models[which];
        const body: ForecastRequestInput = {
          model: forecaster.name,
          inputs: r.inputs.map((s, i) => ({
            type: s.width === 0 ? 'univariate_time_series' : 'multivariate_time_series',
            name: `s${i}`,
            frequency: s.frequency,
            ...(s.start === undefined ? {} : { start_timestamp: s.start }),
            series: Array.from({ length: s.length }, (_, t) => (s.width === 0 ? s.seed[t] : Array.from({ length: s.width }, (_, j) => s.seed[t * 3 + j]))),
          })),
          options: { horizon: r.horizon, ...(r.quantiles === undefined ? {} : { quantiles: r.quantiles }) },
        };
        const res = await forecaster.forecast(body);
        expect(ForecastResponseSchema.safeParse(res).success).toBe(true);
        expect(res.outputs).toHaveLength(body.inputs.length);
        const failed = res.outputs.filter((o) => o.status === 'error').length;
        expect(res.status).toBe(failed === 0 ? 'completed' : failed === res.outputs.length ? 'error' : 'partial');
        res.outputs.forEach((o, i) => {
          const spec = r.inputs[i];
          if (o.status === 'error') {
            expect(o.error?.code).toBe('invalid_series'); // only all-missing variables fail here
            return;
          }
          const [c] = o.content;
          expect(c.name).toBe(`s${i}`);
          expect(isIsoTimestamp(c.start_timestamp)).toBe(true);
          const paths = [c.mean_forecast, ...Object.values(c.quantiles ?? {})];
          expect(Object.keys(c.quantiles ?? {})).toEqual(r.quantiles === undefined ? [] : [...new Set(r.quantiles.map(String))]);
          if (r.quantiles === undefined) {
            expect(c.quantiles).toBeUndefined();
          }
          for (const p of paths) {
            expect(p).toHaveLength(r.horizon);
            for (const row of p) {
              if (spec.width === 0) {
                expect(Number.isFinite(row)).toBe(true);
              } else {
                expect((row as number[]).every(Number.isFinite) && (row as number[]).length === spec.width).toBe(true);
              }
            }
          }
        });
      }),
      { numRuns: 100, seed: 20240731 },
    );
  });
});
