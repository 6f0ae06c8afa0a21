import type { ForecastResponse } from '../../contract/forecast.js';

/**
 * Writes each output's `frequency` back as the caller spelled it (`"D"` stays `"D"`, `"30min"`
 * stays `"30min"`), as KServe does; the forecast itself ran on the normalised name. `body` is the
 * request as sent (before parsing); outputs are in input order.
 */
export function echoFrequencies(response: ForecastResponse, body: unknown): ForecastResponse {
  const inputs = typeof body === 'object' && body !== null ? (body as { inputs?: unknown }).inputs : undefined;
  if (!Array.isArray(inputs)) {
    return response;
  }
  response.outputs.forEach((output, i) => {
    const sent = (inputs[i] as { frequency?: unknown } | undefined)?.frequency;
    if (typeof sent === 'string') {
      output.content.forEach((c) => (c.frequency = sent));
    }
  });
  return response;
}
