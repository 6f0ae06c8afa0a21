import type { ForecastRequestInput } from '../contract/forecast.js';
import type { V1PredictRequest } from '../contract/v1.js';
import type { V2InferRequest } from '../contract/v2.js';

/** Texts of the demo's token-classification requests. */
export const DEMO_TEXTS = ['My name is Wolfgang and I live in Berlin', 'Angela Merkel visited the United Nations in New York'];

/** The interface document's V1 request: `{"instances": [text, …]}`. */
export function demoV1Request(): V1PredictRequest {
  return { instances: [...DEMO_TEXTS] };
}

/** The interface document's V2 request: one BYTES tensor of shape `[N]` holding the texts. */
export function demoV2Request(): V2InferRequest {
  return { inputs: [{ name: 'input-0', shape: [DEMO_TEXTS.length], datatype: 'BYTES', data: [...DEMO_TEXTS] }] };
}

/**
 * International airline passengers (thousands), monthly, 1958-01 … 1960-12: the last 36 points of
 * R's `AirPassengers` (Box & Jenkins; distributed with R under GPL-2).
 */
export const AIR_PASSENGERS_1958 = [
  340, 318, 362, 348, 363, 435, 491, 505, 404, 359, 310, 337, 360, 342, 406, 396, 420, 472, 548, 559, 463, 407, 362, 405,
  417, 391, 419, 461, 472, 535, 622, 606, 508, 461, 390, 432,
];

/**
 * Monthly accidental deaths in the USA (R `USAccDeaths`) and UK deaths from lung diseases (R
 * `ldeaths`), 1975-01 … 1978-12, time first: `[usa, uk]` per month (distributed with R, GPL-2).
 */
export const DEATHS_1975: Array<[number, number]> = [
  [8162, 2933], [7306, 2889], [8124, 2938], [7870, 2497], [9387, 1870], [9556, 1726], [10093, 1607], [9620, 1545],
  [8285, 1396], [8466, 1787], [8160, 2076], [8034, 2837], [7717, 2787], [7461, 3891], [7767, 3179], [7925, 2011],
  [8623, 1636], [8945, 1580], [10078, 1489], [9179, 1300], [8037, 1356], [8488, 1653], [7874, 2013], [8647, 2823],
  [7792, 3102], [6957, 2294], [7726, 2385], [8106, 2444], [8890, 1748], [9299, 1554], [10625, 1498], [9302, 1361],
  [8314, 1346], [8850, 1564], [8265, 1640], [8796, 2293], [7836, 2815], [6892, 3137], [7791, 2679], [8192, 1969],
  [9115, 1870], [9434, 1633], [10484, 1529], [9827, 1366], [9110, 1357], [9070, 1570], [8633, 1535], [9240, 2491],
];

/**
 * A forecast request with a univariate and a multivariate series, monthly, both with
 * `start_timestamp`, 12 steps ahead with the 0.1 / 0.5 / 0.9 quantiles and request metadata
 * (the multivariate input carries an extra field `variables`, which the API keeps).
 */
export function demoForecastRequest(model: string): ForecastRequestInput {
  return {
    model,
    inputs: [
      {
        type: 'univariate_time_series',
        name: 'air_passengers',
        series: [...AIR_PASSENGERS_1958],
        frequency: 'M',
        start_timestamp: '1958-01-01T00:00:00Z',
      },
      {
        type: 'multivariate_time_series',
        name: 'accidental_and_lung_deaths',
        series: DEATHS_1975.map((row) => [...row]),
        variables: ['usa_accidental_deaths', 'uk_lung_deaths'],
        frequency: 'month',
        start_timestamp: '1975-01-01T00:00:00Z',
      },
    ],
    options: { horizon: 12, quantiles: [0.1, 0.5, 0.9] },
    metadata: { request_id: 'inferkit-demo-1' },
  };
}
