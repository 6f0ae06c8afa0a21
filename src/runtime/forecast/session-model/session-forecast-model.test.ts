import { describe, expect, it } from 'vitest';
import { buildRuleForecaster } from '../../../onnx/chronos-bolt.js';
import { float32Tensor, type OrtSession } from '../../ort.js';
import type { ForecastTask } from '../forecast-model.js';
import { ascendingLevels, positiveInteger } from './config-checks.js';
import { openForecastSession, type ForecastGraphSpec } from './open-forecast-session.js';
import { runOnSession } from './run-on-session.js';
import { sessionForecastModel, type SessionModelSpec } from './session-forecast-model.js';

// The rule graph: input `context` [batch, time], output `quantile_preds` [batch, 2, 3] = row mean + offset.
const RULE = buildRuleForecaster({ predictionLength: 3, quantiles: [0.1, 0.9], offsets: [-1, 1] });
const GRAPH: ForecastGraphSpec = { family: 'Rule', inputs: ['context'], outputs: ['quantile_preds'], mismatch: (missing) => `not a rule graph: missing ${missing.join(', ')}` };

/** The rule's forecast of each series' mean, through the session the family was handed. */
const rulePredict: SessionModelSpec['predict'] = async (session, batch, horizon) => {
  const values = await Promise.all(batch.map((x) => runOne(session, x, horizon)));
  return { levels: [0.1, 0.9], values };
};

async function runOne(session: OrtSession, x: Float32Array, horizon: number): Promise<Float32Array> {
  const out = (await session.run({ context: float32Tensor(x, [1, x.length]) })).quantile_preds.data as Float32Array;
  return Float32Array.from([...out.subarray(0, horizon), ...out.subarray(3, 3 + horizon)]);
}

const spec = (over: Partial<SessionModelSpec> = {}): SessionModelSpec => ({
  name: 'rule',
  nativeHorizon: 3,
  quantiles: [0.1, 0.9],
  patchSize: 1,
  contextLength: 16,
  sharesRunQueue: true,
  predict: rulePredict,
  ...over,
});

describe('openForecastSession', () => {
  it('opens the family graph, and names what another graph lacks (model_load_failed)', async () => {
    const session = await openForecastSession(RULE, {}, GRAPH);
    expect(session.inputNames).toEqual(['context']);
    await session.release();
    await expect(openForecastSession(RULE, {}, { ...GRAPH, inputs: ['patches', 'context', 'padding'], outputs: ['quantile_preds', 'mean'] })).rejects.toMatchObject({
      code: 'model_load_failed',
      message: 'not a rule graph: missing patches, padding, mean',
    });
  });
});

describe('sessionForecastModel', () => {
  it('forecasts through the family, then refuses once disposed (model_not_ready), dispose twice being safe', async () => {
    const model = sessionForecastModel(await openForecastSession(RULE, {}, GRAPH), spec({ rollout: 'median' }));
    expect(model.rollout).toBe('median');
    expect(model.sharesRunQueue).toBe(true);
    const f = await model.predict([Float32Array.of(2, 4), Float32Array.of(10)], 2);
    expect(f.values.map((v) => Array.from(v))).toEqual([
      [2, 2, 4, 4],
      [9, 9, 11, 11],
    ]);
    await model.dispose();
    await model.dispose();
    await expect(model.predict([Float32Array.of(1)], 1)).rejects.toMatchObject({ code: 'model_not_ready', message: 'model "rule" was disposed' });
  });

  it('checks the horizon by the family rule: 1..nativeHorizon naming the config field, or any positive integer', async () => {
    const capped = sessionForecastModel(await openForecastSession(RULE, {}, GRAPH), spec({ horizonField: 'prediction_length' }));
    await expect(capped.predict([Float32Array.of(1)], 4)).rejects.toMatchObject({
      code: 'invalid_request',
      param: 'options.horizon',
      message: "horizon 4 is outside 1..3 (the model's prediction_length)",
    });
    await capped.dispose();
    const open = sessionForecastModel(await openForecastSession(RULE, {}, GRAPH), spec({ sharesRunQueue: false, predict: (s, b) => rulePredict(s, b, 3, {}) }));
    expect((await open.predict([Float32Array.of(1)], 40)).values).toHaveLength(1);
    await expect(open.predict([Float32Array.of(1)], 0)).rejects.toMatchObject({ code: 'invalid_request', message: 'horizon 0 must be a positive integer' });
    await open.dispose();
    expect(open.sharesRunQueue).toBe(false);
    expect(open.rollout).toBeUndefined();
  });

  it('serves predictTasks only when the family has it', async () => {
    const pooled = sessionForecastModel(await openForecastSession(RULE, { worker: true, replicas: 2 }, GRAPH), spec());
    expect(pooled.predictTasks).toBeUndefined();
    await pooled.dispose();
    const seen: number[] = [];
    const tasks = sessionForecastModel(await openForecastSession(RULE, {}, GRAPH), {
      ...spec({ horizonField: 'prediction_length' }),
      predictTasks: async (session: OrtSession, t: readonly ForecastTask[], horizon: number) => {
        seen.push(t.length);
        return rulePredict(session, t.flatMap((x) => x.targets), horizon, {});
      },
    });
    const f = await tasks.predictTasks([{ targets: [Float32Array.of(5), Float32Array.of(7)], pastCovariates: [], futureCovariates: [] }], 1);
    expect(f.values.map((v) => Array.from(v))).toEqual([
      [4, 6],
      [6, 8],
    ]);
    expect(seen).toEqual([1]);
    await expect(tasks.predictTasks([], 9)).rejects.toMatchObject({ code: 'invalid_request' });
    await tasks.dispose();
  });
});

describe('runOnSession', () => {
  it('collects every run in order, and an aborted signal stops before the next run', async () => {
    const session = await openForecastSession(RULE, {}, GRAPH);
    const got: number[] = [];
    await runOnSession(session, [1, 2, 3, 4], (n) => runOne(session, Float32Array.of(n * 10), 1), (n, out) => got.push(n, out[0]));
    expect(got).toEqual([1, 9, 2, 19, 3, 29, 4, 39]);
    const controller = new AbortController();
    const started: number[] = [];
    const stop = runOnSession(
      session,
      [1, 2, 3, 4],
      (n) => {
        started.push(n);
        controller.abort(new Error('stopped'));
        return runOne(session, Float32Array.of(n), 1);
      },
      () => undefined,
      controller.signal,
    );
    await expect(stop).rejects.toThrow('stopped');
    expect(started).toEqual([1]);
    await session.release();
  });
});

describe('config checks', () => {
  it('ascendingLevels copies ascending levels and refuses others naming the field; positiveInteger refuses 0 and fractions', () => {
    expect(ascendingLevels([0.1, 0.5], 'config.json quantiles')).toEqual([0.1, 0.5]);
    expect(() => ascendingLevels([0.5, 0.5], 'chronos_config.quantiles', 'quantiles')).toThrow(expect.objectContaining({ code: 'model_load_failed', param: 'quantiles', message: 'chronos_config.quantiles must be ascending, got [0.5, 0.5]' }));
    expect(positiveInteger(3, 'batchSize')).toBe(3);
    for (const bad of [0, 1.5]) {
      expect(() => positiveInteger(bad, 'runRows')).toThrow(expect.objectContaining({ code: 'config', param: 'runRows' }));
    }
  });
});
