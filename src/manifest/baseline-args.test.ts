import { describe, expect, it } from 'vitest';
import { baselineArgProblems, baselineOf } from './baseline-args.js';
import { parseRuntimeArgs } from './parse-runtime-args.js';

const problems = (modelId: string | undefined, args: string[], forecast = true) =>
  baselineArgProblems({ ...(modelId !== undefined ? { modelId } : {}), args: parseRuntimeArgs(args) }, forecast);

describe('baselineOf', () => {
  it.each([
    ['theta', 'theta'],
    ['Baseline/MSTL', 'mstl'],
    ['auto_ets', 'auto-ets'],
    ['ETS', 'auto-ets'],
    ['seasonal_naive', 'seasonal-naive'],
    ['amazon/chronos-bolt-small', undefined],
    [undefined, undefined],
  ])('%s → %s', (id, kind) => {
    expect(baselineOf(id)).toBe(kind);
  });
});

describe('baselineArgProblems', () => {
  it('accepts each arg on the baselines that use it', () => {
    for (const id of ['seasonal-naive', 'theta', 'auto-ets', 'mstl', 'auto-arima']) {
      expect(problems(id, ['--season=7'])).toEqual([]);
    }
    expect(problems('mstl', ['--seasonal_periods=24,168'])).toEqual([]);
    expect(problems('autoets', ['--max_context', '50', '--season=12'])).toEqual([]);
    expect(problems('naive', [])).toEqual([]);
  });

  it('names the arg and the models that take it when the model would ignore it', () => {
    expect(problems('theta', ['--seasonal_periods=7'])).toEqual([
      { param: 'seasonal_periods', message: '--seasonal_periods is used only by the baseline --model_id=mstl; model "theta" does not use it: remove the arg or change --model_id' },
    ]);
    expect(problems('amazon/chronos-bolt-small', ['--season=24', '--max_context=100']).map((p) => p.message)).toEqual([
      '--season is used only by the baselines --model_id=seasonal-naive, theta, auto-ets, mstl, auto-arima and stat-ensemble; model "amazon/chronos-bolt-small" does not use it: remove the arg or change --model_id',
      '--max_context is used only by the baseline --model_id=auto-ets; model "amazon/chronos-bolt-small" does not use it: remove the arg or change --model_id',
    ]);
    expect(problems('naive', ['--season=7'])).toMatchObject([{ param: 'season', message: expect.stringContaining('model "naive" does not use it') }]);
    expect(problems(undefined, ['--season=7'])).toMatchObject([{ message: expect.stringContaining('this service\'s model does not use it') }]);
  });

  it('refuses them all on a token-classification service, even one named like a baseline', () => {
    expect(problems('theta', ['--season=7'], false).map((p) => p.param)).toEqual(['season']);
  });

  it('refuses MSTL\'s --season next to --seasonal_periods', () => {
    expect(problems('mstl', ['--season=24', '--seasonal_periods=24,168'])).toMatchObject([{ param: 'season', message: expect.stringMatching(/^--season with --seasonal_periods: mstl takes its periods from --seasonal_periods/) }]);
  });
});
