/** The tslab version a notebook folder gets (the one inferkit's own notebooks run on). */
export const TSLAB_VERSION = '1.0.22';

/** A folder name as an npm package and Jupyter kernel name: lower case, `[a-z0-9._-]`, never empty. */
export function slugOf(folderName: string): string {
  const slug = folderName
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  return slug === '' ? 'notebooks' : slug;
}

/**
 * The folder's package.json: `existing` (parsed) with `inferkit` and `tslab` added to its dependencies where
 * it names neither; a new one when there is none. `inferkit` is the dependency spec (a version range, or a
 * `file:` tarball).
 */
export function folderPackageJson(name: string, inferkit: string, existing?: Record<string, unknown>): Record<string, unknown> {
  const base = existing ?? { name: slugOf(name), version: '0.0.0', private: true, description: `Notebooks of ${name}, with inferkit` };
  const deps = { ...((base.dependencies as Record<string, string> | undefined) ?? {}) };
  const dev = (base.devDependencies as Record<string, string> | undefined) ?? {};
  if (deps.inferkit === undefined && dev.inferkit === undefined) {
    deps.inferkit = inferkit;
  }
  if (deps.tslab === undefined && dev.tslab === undefined) {
    deps.tslab = TSLAB_VERSION;
  }
  return { ...base, dependencies: deps };
}

/** What a notebook folder keeps out of git. */
export const GITIGNORE = ['node_modules/', '.ipynb_checkpoints/', 'out/', ''].join('\n');

const markdown = (text: string): unknown => ({ cell_type: 'markdown', metadata: {}, source: lines(text) });
const code = (id: string, text: string): unknown => ({ cell_type: 'code', id, execution_count: null, metadata: {}, outputs: [], source: lines(text) });
const lines = (text: string): string[] => text.split('\n').map((l, i, all) => (i < all.length - 1 ? `${l}\n` : l));

/**
 * The example notebook: a theta forecast of two classic series read from the CSV that ships with inferkit,
 * shown as a table, written to CSV; the kernel is the folder's own (`kernelName`, `displayName`).
 */
export function exampleNotebook(kernelName: string, displayName: string): unknown {
  return {
    cells: [
      markdown(
        [
          '# Forecast with inferkit',
          '',
          "Everything comes from `'inferkit'`, installed in this folder (`npm install` keeps it up to date). The kernel is",
          `this folder's own tslab ("${displayName}"), so this notebook uses the packages of this folder.`,
        ].join('\n'),
      ),
      code(
        'load',
        [
          "import { readCsv, frameToInputs, batchForecast, forecastToFrame, writeCsv, displayFrame, localForecaster, theta } from 'inferkit';",
          '',
          "const df = await readCsv('node_modules/inferkit/datasets/classic_series.csv');",
          "const inputs = frameToInputs(df).filter((s) => ['AirPassengers', 'Nile'].includes(s.name));",
          "inputs.map((s) => `${s.name}: ${s.series.length} × ${s.frequency} from ${s.start_timestamp}`).join('\\n');",
        ].join('\n'),
      ),
      code(
        'forecast',
        [
          'const result = await batchForecast(inputs, localForecaster(theta()), { horizon: 12, quantiles: [0.1, 0.9] });',
          'const frame = forecastToFrame(result.forecasts);',
          "await writeCsv(frame, 'forecasts.csv');",
          'await displayFrame(frame, { maxRows: 8 });',
          "console.log(`${result.status}: ${frame.shape[0]} rows × ${frame.shape[1]} columns, written to forecasts.csv`);",
        ].join('\n'),
      ),
      markdown(
        [
          '## Next',
          '',
          '- Your own long CSV (`id,timestamp,value`, or `unique_id,ds,y`): `readCsv(path)`, then `frameToInputs`.',
          '- Charts: `forecastFigure(inputs, result.forecasts)` and `await displayFigure(fig)` (needs Chromium).',
          '- A served model instead of the in-kernel one: `remote(...)` in place of `localForecaster(...)`.',
        ].join('\n'),
      ),
    ],
    metadata: {
      kernelspec: { display_name: displayName, language: 'typescript', name: kernelName },
      language_info: { name: 'typescript' },
    },
    nbformat: 4,
    nbformat_minor: 5,
  };
}
