import type { FastifyInstance } from 'fastify';
import { ForecastRequestSchema, type ForecastResponse } from '../contract/forecast.js';
import { parseContract } from '../contract/parse.js';
import { InferkitError } from '../errors.js';
import { echoFrequencies } from '../protocol/forecast/echo-frequencies.js';
import { errorResponse } from '../protocol/forecast/error-response.js';
import { takesParsed } from '../protocol/forecast/local-forecaster.js';
import { disconnectSignal } from './guard-abort.js';
import { redactForecastError } from './redact-paths.js';
import { ensureReady, route, scopeOf, type ServerContext } from './server-context.js';
import { toErrorResponse } from './to-error-response.js';

/** The forecast route's path. */
export const FORECAST_PATH = '/v1/timeseries/forecast';

/** HTTP status of an answer whose every input failed, by its error's type. */
const STATUS_OF_ERROR_TYPE: Record<string, number> = { invalid_request_error: 400, not_found_error: 404, service_unavailable_error: 503, server_error: 500 };

/** The `model` a forecast body names, for error bodies, or `''`. */
export function requestedModel(body: unknown): string {
  const m = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined;
  return typeof m === 'string' ? m : '';
}

/**
 * `POST /v1/timeseries/forecast`: the body's `model` picks the model among the services the Host
 * reaches. Every failure answers a ForecastResponse with `status: "error"` and its HTTP status
 * (400 request mistakes, 404 unknown model or Host, 503 loading, 500 faults), also when every input
 * failed on its own (the first failure's type decides); some inputs failed → `partial`, 200.
 */
export function registerForecastRoute(app: FastifyInstance, ctx: ServerContext): void {
  route(app, FORECAST_PATH, {
    POST: async (request, reply): Promise<ForecastResponse> => {
      try {
        const parsed = parseContract(ForecastRequestSchema, request.body, 'forecast request');
        const entry = ctx.registry.find(scopeOf(ctx, request), parsed.model);
        ctx.modelOf.set(request, entry.name);
        ctx.entryOf.set(request, entry);
        // A service whose manifest failed (no task) answers 503 with its reason below, as on V1/V2.
        if (entry.task !== undefined && entry.task !== 'time_series_forecast') {
          throw new InferkitError('model_not_found', `model "${entry.name}" is not a forecasting model (task ${entry.task})`, { param: 'model' });
        }
        ensureReady(entry, reply);
        ctx.queue?.admit(entry.name, reply);
        if (entry.model?.task !== 'time_series_forecast') {
          throw new InferkitError('internal', `model "${entry.name}" has no forecaster`);
        }
        // A loader's own forecaster may answer canonical names: frequencies are echoed as sent here too.
        // The server's own forecasters take the body parsed above; a loader's own one gets it as a request.
        const forecaster = entry.model.forecaster;
        const call = { signal: disconnectSignal(reply) };
        const answer = echoFrequencies(await (takesParsed(forecaster) ? forecaster.forecastParsed(parsed, call) : forecaster.forecast(parsed, call)), request.body);
        // Every input failed: the answer is an error and its HTTP status says which (a year past 9999 was a 200, issue 28 N8); `partial` stays 200.
        if (answer.status === 'error') {
          reply.code(STATUS_OF_ERROR_TYPE[answer.error?.type ?? ''] ?? 500);
        }
        return answer;
      } catch (e) {
        reply.code(toErrorResponse(e).status);
        return redactForecastError(errorResponse(e, requestedModel(request.body)));
      }
    },
  });
}
