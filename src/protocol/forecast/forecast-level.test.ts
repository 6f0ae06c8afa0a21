import { describe, expect, it } from 'vitest';
import { isInferkitError } from '../../errors.js';
import { seasonalNaive } from '../../runtime/forecast/seasonal-naive.js';
import { localForecaster } from './local-forecaster.js';

const fc = localForecaster(seasonalNaive({ name: 'sn' }));
const series = Array.from({ length: 40 }, (_, t) => 10 + (t % 7) + 0.3 * Math.sin(t));
const body = (options: Record<string, unknown>) => ({
  model: 'sn',
  inputs: [{ type: 'univariate_time_series' as const, name: 's', series, frequency: 'D' }],
  options: { horizon: 5, ...options },
});

describe('options.level (inferkit extension): interval levels in percent', () => {
  it('level [80, 95] is answered as the quantiles 0.025, 0.1, 0.9, 0.975, the same paths as asking for them', async () => {
    const byLevel = await fc.forecast(body({ level: [80, 95] }));
    const byQuantile = await fc.forecast(body({ quantiles: [0.025, 0.1, 0.9, 0.975] }));
    const q = byLevel.outputs[0]?.content[0]?.quantiles ?? {};
    expect(Object.keys(q)).toEqual(['0.025', '0.1', '0.9', '0.975']);
    expect(q).toEqual(byQuantile.outputs[0]?.content[0]?.quantiles);
    const lo = q['0.1'] as number[];
    const hi = q['0.9'] as number[];
    expect(lo.every((v, h) => v < (hi[h] as number))).toBe(true);
  });

  it('merges with quantiles, without duplicates, ascending', async () => {
    const res = await fc.forecast(body({ quantiles: [0.5, 0.1], level: [80] }));
    expect(Object.keys(res.outputs[0]?.content[0]?.quantiles ?? {})).toEqual(['0.1', '0.5', '0.9']);
  });

  it('a level outside (0, 100) is a 400-type error naming options.level[i]', async () => {
    const e = await fc.forecast(body({ level: [80, 100] })).catch((x: unknown) => x);
    expect(isInferkitError(e) && e.code === 'invalid_request' && e.param === 'options.level[1]').toBe(true);
    expect((e as Error).message).toMatch(/options\.level\[1\]: expected a level in percent in \(0, 100\)/);
  });
});
