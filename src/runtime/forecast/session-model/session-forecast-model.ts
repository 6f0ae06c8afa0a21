import type { ForecastRollout } from '../../../contract/forecast.js';
import { InferkitError } from '../../../errors.js';
import type { OrtSession } from '../../ort.js';
import type { ForecastModel, ForecastTask, ModelForecast, PredictOptions } from '../forecast-model.js';

/** A family's forecast of one call on the live session (horizon already checked). */
export type SessionPredict<I, O extends PredictOptions = PredictOptions> = (session: OrtSession, inputs: readonly I[], horizon: number, options: O) => Promise<ModelForecast>;

/** What a family tells {@link sessionForecastModel}: its description and its forecast on a session. */
export interface SessionModelSpec {
  /** Name requests are checked against. */
  name: string;
  /** Most steps one call answers (see `horizonField`). */
  nativeHorizon: number;
  /** Native quantile levels, ascending. */
  quantiles: readonly number[];
  patchSize: number;
  contextLength: number;
  /** The model's rollout past `nativeHorizon`; absent = the protocol's default. */
  rollout?: ForecastRollout;
  /**
   * The config field `nativeHorizon` comes from (`prediction_length`): a call's horizon must be 1..nativeHorizon.
   * Absent: any positive horizon (the family rolls out past `nativeHorizon` itself).
   */
  horizonField?: string;
  /** The family's calls share one run queue per session (`ForecastModel.sharesRunQueue`). */
  sharesRunQueue: boolean;
  /** Forecasts a batch of series. */
  predict: SessionPredict<Float32Array>;
}

/** A {@link ForecastModel} whose `predictTasks` takes the family's per-call options `O`. */
export type SessionTaskModel<O extends PredictOptions> = ForecastModel & { predictTasks(tasks: readonly ForecastTask[], horizon: number, options?: O): Promise<ModelForecast> };

/**
 * A session-backed {@link ForecastModel}: the family's `predict` (and `predictTasks`) run on the live session
 * after the checks every family shares — `model_not_ready` once disposed, `invalid_request` (param
 * `options.horizon`) for a horizon outside the family's rule. `busyMs` reads the session;
 * `dispose` releases it once (safe to call twice; calls already running finish on it).
 */
export function sessionForecastModel(session: OrtSession, spec: SessionModelSpec): ForecastModel;
export function sessionForecastModel<O extends PredictOptions>(session: OrtSession, spec: SessionModelSpec & { predictTasks: SessionPredict<ForecastTask, O> }): SessionTaskModel<O>;
export function sessionForecastModel(session: OrtSession, spec: SessionModelSpec & { predictTasks?: SessionPredict<ForecastTask> }): ForecastModel {
  let live: OrtSession | undefined = session;
  const use = (horizon: number): OrtSession => {
    const current = live;
    if (!current) {
      throw new InferkitError('model_not_ready', `model "${spec.name}" was disposed`);
    }
    checkHorizon(horizon, spec);
    return current;
  };
  const tasks = spec.predictTasks;
  return {
    name: spec.name,
    nativeHorizon: spec.nativeHorizon,
    quantiles: spec.quantiles,
    patchSize: spec.patchSize,
    contextLength: spec.contextLength,
    ...(spec.rollout ? { rollout: spec.rollout } : {}),
    sharesRunQueue: spec.sharesRunQueue,
    get busyMs(): number | undefined {
      return live?.busyMs;
    },
    ...(tasks ? { predictTasks: async (t: readonly ForecastTask[], horizon: number, opts: PredictOptions = {}) => tasks(use(horizon), t, horizon, opts) } : {}),
    async predict(batch: readonly Float32Array[], horizon: number, opts: PredictOptions = {}): Promise<ModelForecast> {
      return spec.predict(use(horizon), batch, horizon, opts);
    },
    async dispose(): Promise<void> {
      const s = live;
      live = undefined;
      await s?.release();
    },
  };
}

function checkHorizon(horizon: number, spec: SessionModelSpec): void {
  if (spec.horizonField === undefined) {
    if (!Number.isInteger(horizon) || horizon < 1) {
      throw new InferkitError('invalid_request', `horizon ${horizon} must be a positive integer`, { param: 'options.horizon' });
    }
  } else if (!Number.isInteger(horizon) || horizon < 1 || horizon > spec.nativeHorizon) {
    throw new InferkitError('invalid_request', `horizon ${horizon} is outside 1..${spec.nativeHorizon} (the model's ${spec.horizonField})`, { param: 'options.horizon' });
  }
}
