import { afterEach, describe, expect, it } from 'vitest';
import type { Frequency } from '../../contract/enums.js';
import { createBaseline, type BaselineSpec } from '../forecast/baseline-spec.js';
import type { ForecastTask, ModelForecast } from '../forecast/forecast-model.js';
import { MAX_BASELINE_WORKER_RESTARTS, startWorkerBaseline, WorkerBaseline } from './worker-baseline.js';

const LOAD_MS = 60_000;

/** `n` monthly series with a yearly pattern, a trend and fixed noise (some with gaps). */
function monthly(n: number, length = 60): Float32Array[] {
  return Array.from({ length: n }, (_, k) =>
    Float32Array.from({ length: length - (k % 7) }, (_, t) => (t === 5 && k % 3 === 0 ? Number.NaN : 100 + k + 0.5 * t + 10 * Math.sin((2 * Math.PI * t) / 12 + k) + 3 * Math.sin(t * 12.9898 + k))),
  );
}

const open: WorkerBaseline[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.dispose()));
});

describe('baselines in worker threads', () => {
  it.each<BaselineSpec>([
    { kind: 'auto-ets', options: { name: 'ets' } },
    { kind: 'mstl', options: { periods: [12] } },
    { kind: 'theta' },
    { kind: 'naive' },
  ])('$kind answers exactly what the in-thread model answers, leaving the caller\'s arrays intact', async (spec) => {
    const series = monthly(37);
    const frequencies = series.map((): Frequency => 'M');
    const local = createBaseline(spec);
    const remote = await startWorkerBaseline(spec, { workers: 2 });
    open.push(remote);
    expect([remote.name, remote.nativeHorizon, remote.quantiles]).toEqual([local.name, local.nativeHorizon, local.quantiles]);
    const a = await local.predict(series, 18, { frequencies });
    const b = await remote.predict(series, 18, { frequencies });
    expect(b).toEqual(a);
    expect(series.every((s) => s.byteLength > 0)).toBe(true);
    expect(await remote.predict([], 3)).toEqual({ levels: local.quantiles, values: [], mean: [] });
  }, LOAD_MS);

  it.each<BaselineSpec>([{ kind: 'auto-arima' }, { kind: 'stat-ensemble' }])('$kind forecasts tasks with their covariates in the workers as in the thread, warnings on the right task', async (spec) => {
    const H = 4;
    // 9 tasks (3 chunks on 2 workers): y = 40 + 6·promo + noise; every third task also has a past-only covariate.
    const tasks: ForecastTask[] = Array.from({ length: 9 }, (_, k) => {
      const promo = Float32Array.from({ length: 48 + H }, (_, t) => ((t + k) % 5 < 2 ? 1 : 0));
      const y = Float32Array.from({ length: 48 }, (_, t) => 40 + k + 6 * promo[t] + 2 * Math.sin(t * 12.9898 + k));
      return { targets: [y], pastCovariates: k % 3 === 0 ? [y.map((v) => v / 2)] : [], futureCovariates: [{ history: promo.slice(0, 48), future: promo.slice(48) }] };
    });
    const frequencies = tasks.map((): Frequency => 'D');
    const local = createBaseline(spec);
    const remote = await startWorkerBaseline(spec, { workers: 2 });
    open.push(remote);
    expect(typeof remote.predictTasks).toBe('function');
    const a = await local.predictTasks?.(tasks, H, { frequencies });
    const b = await remote.predictTasks?.(tasks, H, { frequencies });
    expect({ ...b, taskWarnings: undefined }).toEqual({ ...a, taskWarnings: undefined });
    // The protocol reads warnings per task: each task's list (in order) is the thread's.
    const byTask = (ws: ModelForecast['taskWarnings']) => tasks.map((_, k) => (ws ?? []).filter((w) => w.task === k));
    expect(byTask(b?.taskWarnings)).toEqual(byTask(a?.taskWarnings));
    expect(byTask(b?.taskWarnings).map((ws) => ws.length)).toEqual(spec.kind === 'auto-arima' ? [1, 0, 0, 1, 0, 0, 1, 0, 0] : [2, 1, 1, 2, 1, 1, 2, 1, 1]);
    expect(tasks.every((t) => t.targets[0].byteLength > 0 && t.futureCovariates[0].future.byteLength > 0)).toBe(true);
    // Models that cannot read covariates have no predictTasks in the workers either (the protocol warns for them).
    expect(new WorkerBaseline({ kind: 'theta' }).predictTasks).toBeUndefined();
  }, 2 * LOAD_MS);

  it('bad options fail at construction with the in-thread error; a failing forecast rejects with its message', async () => {
    expect(() => new WorkerBaseline({ kind: 'auto-ets', options: { model: 'XYZ' } })).toThrow(/XYZ/);
    expect(() => new WorkerBaseline({ kind: 'prophet' } as unknown as BaselineSpec)).toThrow(expect.objectContaining({ code: 'config', message: expect.stringContaining('unknown baseline "prophet"') }));
    expect(() => new WorkerBaseline({ kind: 'theta' }, { workers: 0 })).toThrow(expect.objectContaining({ code: 'config', param: 'workers' }));
    const m = await startWorkerBaseline({ kind: 'theta' });
    open.push(m);
    await expect(m.predict(monthly(1), -1)).rejects.toMatchObject({ code: 'inference_failed', message: expect.stringContaining('Invalid typed array length') });
    await expect(m.predict(monthly(1), 2)).resolves.toHaveProperty('values');
  }, LOAD_MS);

  it('an aborted call rejects with the signal\'s reason at once and its queued chunks never run', async () => {
    const m = await startWorkerBaseline({ kind: 'auto-ets' });
    open.push(m);
    const controller = new AbortController();
    const call = m.predict(monthly(400), 12, { signal: controller.signal });
    expect(m.queued).toBeGreaterThan(20);
    controller.abort(new Error('client went away'));
    await expect(call).rejects.toThrow('client went away');
    expect(m.queued).toBe(0);
    // The worker finishes at most its current chunk, then serves the next call.
    const next = await m.predict(monthly(1), 3);
    expect(next.values).toHaveLength(1);
    await expect(m.predict(monthly(1), 3, { signal: AbortSignal.abort(new Error('already gone')) })).rejects.toThrow('already gone');
  }, LOAD_MS);

  it('a killed worker fails its call with the reason, is replaced, and the model gives up after the bound', async () => {
    const m = await startWorkerBaseline({ kind: 'auto-ets' });
    open.push(m);
    const failed = expect(m.predict(monthly(64), 12)).rejects.toMatchObject({ code: 'inference_failed', message: expect.stringContaining('simulated crash') });
    await new Promise((r) => setTimeout(r, 20));
    await m.kill('simulated crash');
    await failed;
    for (let i = 0; i < 100 && m.restarts < 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await expect(m.predict(monthly(2), 3)).resolves.toHaveProperty('values');
    for (let i = 1; i <= MAX_BASELINE_WORKER_RESTARTS; i++) {
      await m.kill(`crash ${i}`);
      if (i < MAX_BASELINE_WORKER_RESTARTS) {
        await expect(m.predict(monthly(1), 3)).resolves.toHaveProperty('values');
      }
    }
    await expect(m.predict(monthly(1), 3)).rejects.toMatchObject({ code: 'model_not_ready', message: expect.stringContaining(`crash ${MAX_BASELINE_WORKER_RESTARTS}`) });
    await m.dispose();
    await expect(m.predict(monthly(1), 3)).rejects.toMatchObject({ code: 'model_not_ready' });
  }, 4 * LOAD_MS);
});
