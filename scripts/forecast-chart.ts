// Writes docs/forecast-chart.png (the README screenshot): theta forecasts of four classic series with
// 50% and 80% bands, rendered by headless Chromium. Run from the repository root:
//   npx tsx scripts/forecast-chart.ts [out.png]
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { batchForecast } from '../src/data/batch-forecast.js';
import { readCsv } from '../src/data/csv.js';
import { frameToInputs } from '../src/data/frame-to-inputs.js';
import { forecastFigure } from '../src/plot/forecast-figure.js';
import { renderPng } from '../src/plot/render-png.js';
import { localForecaster } from '../src/protocol/forecast/local-forecaster.js';
import { theta } from '../src/runtime/forecast/theta.js';

// Units of the R datasets these series come from.
const UNITS = { AirPassengers: 'thousand passengers', co2: 'ppm', UKgas: 'million therms', Nile: '10⁸ m³' };

async function main(): Promise<void> {
  const out = process.argv[2] ?? 'docs/forecast-chart.png';
  const names = ['AirPassengers', 'co2', 'UKgas', 'Nile'];
  const inputs = frameToInputs(await readCsv('datasets/classic_series.csv')).filter((s) => names.includes(s.name));
  const result = await batchForecast(inputs, localForecaster(theta()), { horizon: 24, quantiles: [0.1, 0.25, 0.5, 0.75, 0.9] });
  const fig = forecastFigure(inputs, result.forecasts, { series: names, units: UNITS, title: 'Theta forecasts with 50% and 80% bands' });
  const png = await renderPng(fig, { width: 1000, scale: 1 });
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, png);
  console.log(`wrote ${out} (${png.length} bytes)`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
