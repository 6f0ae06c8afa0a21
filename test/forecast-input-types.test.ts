import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

// What a user's editor and `tsc` say about forecast calls written against the package: each snippet is a
// virtual file beside this one, type-checked by the compiler with the project's tsconfig.
const ROOT = fileURLToPath(new URL('../', import.meta.url)).replace(/\\/g, '/');
const COMPILE_TIMEOUT_MS = 120_000;

const HEADER = `import {
  batchForecast, crossValidation, localForecaster, remote, theta,
  type ForecastOptionsInput, type ForecastRequestInput, type TimeSeriesInput,
} from '../src/index.js';
const inputs: TimeSeriesInput[] = [{ type: 'univariate_time_series', name: 'a', series: [1, 2, 3, 4], frequency: 'D' }];
const far = remote({ baseUrl: 'http://127.0.0.1:8080' }, { modelName: 'theta' });
const near = localForecaster(theta());
export async function use(): Promise<void> {
`;

/** One misspelt field per snippet, with the name the compiler must report. */
const TYPOS: Array<{ where: string; line: string; field: string }> = [
  { where: 'the remote client\'s forecast', field: 'quantile', line: `await far.forecast({ model: 'theta', inputs, options: { horizon: 12, quantile: [0.5] } });` },
  { where: 'the in-kernel forecaster\'s forecast', field: 'quantile', line: `await near.forecast({ model: 'theta', inputs, options: { horizon: 12, quantile: [0.5] } });` },
  { where: 'batchForecast', field: 'quantile', line: `await batchForecast(inputs, near, { horizon: 12, quantile: [0.5] });` },
  { where: 'crossValidation', field: 'quantile', line: `await crossValidation(inputs, near, { horizon: 2, quantile: [0.5] });` },
  { where: 'a ForecastOptionsInput', field: 'quantile', line: `const options: ForecastOptionsInput = { horizon: 12, quantile: [0.5] }; void options;` },
  { where: 'a ForecastRequestInput\'s top level', field: 'metdata', line: `const r: ForecastRequestInput = { model: 'theta', inputs, options: { horizon: 1 }, metdata: {} }; void r;` },
  {
    where: 'an input of a request',
    field: 'start_timestmp',
    line: `await near.forecast({ model: 'theta', inputs: [{ type: 'univariate_time_series', name: 'a', series: [1, 2], frequency: 'D', start_timestmp: '2024-01-01' }], options: { horizon: 1 } });`,
  },
  { where: 'localForecaster\'s call options', field: 'maxHorizn', line: `localForecaster(theta(), { maxHorizn: 10 });` },
];

/** Correct code, including the documented ways to send fields the types do not declare. */
const CORRECT = [
  `await far.forecast({ model: 'theta', inputs, options: { horizon: 12, quantiles: [0.1, 0.9], level: [80], rollout: 'median' } });`,
  `await near.forecast({ model: 'theta', inputs: [{ type: 'UNIVARIATE_TIME_SERIES', name: 'b', series: [1, null, 3], frequency: 'd', start_timestamp: '2024-01-01T00:00:00Z', time_zone: 'Europe/Berlin' }], options: { horizon: 1 } });`,
  `await near.forecast({ model: 'theta', inputs, options: { horizon: 1 }, metadata: { run: 7 }, other_properties: { anything: [1] } });`,
  // A field the types do not declare is still sent when it comes in an object typed elsewhere.
  `const options = { horizon: 3, seed: 7 }; await far.forecast({ model: 'theta', inputs, options });`,
  `await batchForecast(inputs, near, { horizon: 2, quantiles: [0.5], level: [80], chunkSize: 8, concurrency: 2 });`,
  `await crossValidation(inputs, near, { horizon: 1, windows: 2, quantiles: [0.5] });`,
  `localForecaster(theta(), { maxHorizon: 10, rollout: 'median' });`,
  `const typed: ForecastOptionsInput = { horizon: 2, level: [95] }; const request: ForecastRequestInput = { model: 'theta', inputs, options: typed }; await near.forecast(request);`,
];

const file = (name: string): string => `${ROOT}test/__${name}.ts`;
const SOURCES = new Map<string, string>([
  ...TYPOS.map((t, i): [string, string] => [file(`typo-${i}`), `${HEADER}  ${t.line}\n}\n`]),
  [file('correct'), `${HEADER}${CORRECT.map((l) => `  ${l}\n`).join('')}}\n`],
]);

/** Errors the compiler reports in each virtual file: its line (1-based) and the flattened message. */
function compileSnippets(): Map<string, Array<{ line: number; text: string }>> {
  const config = ts.getParsedCommandLineOfConfigFile(`${ROOT}tsconfig.json`, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  // Unused imports are no concern of these snippets (each uses only part of the header).
  const options = { ...(config?.options ?? { strict: true }), noEmit: true, noUnusedLocals: false };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => SOURCES.has(f) || fileExists(f);
  host.readFile = (f) => SOURCES.get(f) ?? readFile(f);
  host.getSourceFile = (f, lang, ...rest) => {
    const text = SOURCES.get(f);
    return text === undefined ? getSourceFile(f, lang, ...rest) : ts.createSourceFile(f, text, lang);
  };
  const program = ts.createProgram([...SOURCES.keys()], options, host);
  const out = new Map<string, Array<{ line: number; text: string }>>();
  for (const name of SOURCES.keys()) {
    const source = program.getSourceFile(name);
    if (source === undefined) {
      throw new TypeError(`the compiler did not read ${name}`);
    }
    out.set(name, [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => ({
      line: source.getLineAndCharacterOfPosition(d.start ?? 0).line + 1,
      text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    })));
  }
  return out;
}

describe('forecast input types (ForecastRequestInput, ForecastOptionsInput, batch and call options)', () => {
  let errors: Map<string, Array<{ line: number; text: string }>>;
  const typoLine = HEADER.split('\n').length;

  beforeAll(() => {
    errors = compileSnippets();
  }, COMPILE_TIMEOUT_MS);

  TYPOS.forEach(({ where, field }, i) => {
    it(`a misspelt field in ${where} is a compile error naming ${field}`, () => {
      const found = errors.get(file(`typo-${i}`)) ?? [];
      expect(found, JSON.stringify(found)).toHaveLength(1);
      expect(found[0].line).toBe(typoLine);
      expect(found[0].text).toContain(`'${field}' does not exist in type`);
    });
  });

  it('compiles correct code, extra fields sent the documented ways included', () => {
    expect(errors.get(file('correct'))).toEqual([]);
  });
});
