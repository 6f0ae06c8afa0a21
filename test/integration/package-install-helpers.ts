/**
 * The package.json a consumer's folder starts from (README, "Use inferkit in your own notebook folder"):
 * nothing but a name. No `overrides`: inferkit's dependencies install from the registry as they are.
 */
export function consumerPackageJson(): Record<string, unknown> {
  return { name: 'my-notebooks', private: true };
}

const CELL = [
  "import { inferenceService, toYaml, loadDataset, loadTokenClassifier, writeNerFixtureRepo, type Manifest } from 'inferkit';",
  "import { tmpdir } from 'node:os';",
  "import { join } from 'node:path';",
  "const isvc: Manifest = inferenceService({ name: 'notebook-check', modelId: 'inferkit/ner-fixture' });",
  'console.log(toYaml(isvc));',
  "console.log(`data sets: ${(await loadDataset('classic_series')).length}`);",
  'if (Date.now() < 0) {',
  "  // @ts-expect-error name must be a string; were the package's types unresolved (any), this directive would be an error",
  '  inferenceService({ name: 42 });',
  '}',
  "console.log('typed: true');",
  // The ONNX session in a worker thread: its entry is found from dist/ when the package is required (CommonJS kernel).
  'const nerDir = join(tmpdir(), `inferkit-nb-ner-${process.pid}`);',
  'await writeNerFixtureRepo(nerDir);',
  "const ner = await loadTokenClassifier(nerDir, { modelName: 'ner', session: { worker: true } });",
  "console.log(`worker ids: ${JSON.stringify((await ner.predictTokenIds(['john is in paris'])).classIds)}`);",
  'await ner.dispose();',
];

/** A one-cell tslab notebook importing from the package name. */
export function notebookJson(): unknown {
  return {
    cells: [{ cell_type: 'code', id: 'check', execution_count: null, metadata: {}, outputs: [], source: CELL.map((l) => `${l}\n`) }],
    metadata: { kernelspec: { display_name: 'TypeScript', language: 'typescript', name: 'tslab' } },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

interface Output {
  output_type: string;
  text?: string | string[];
  ename?: string;
  evalue?: string;
}

/** Printed text and error outputs (`ename: evalue`) of an executed notebook. */
export function outputsOf(nb: { cells: Array<{ outputs?: Output[] }> }): { text: string; errors: string[] } {
  const outputs = nb.cells.flatMap((c) => c.outputs ?? []);
  const join = (v: string | string[] | undefined): string => (Array.isArray(v) ? v.join('') : (v ?? ''));
  return {
    text: outputs.map((o) => join(o.text)).join(''),
    errors: outputs.filter((o) => o.output_type === 'error').map((o) => `${o.ename ?? ''}: ${o.evalue ?? ''}`),
  };
}

