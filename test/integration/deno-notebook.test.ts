import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFORMANCE_DIR, loadExchanges } from '../conformance/exchanges.js';
import { consumerPackageJson, outputsOf } from './package-install-helpers.js';
import { expectKilledRunLeavesNoKernel } from './killed-kernel.js';
import { packedTarball } from './packed-tarball.js';
import { runGroup } from './run-group.js';

/**
 * Deno's Jupyter kernel (issue #26, item 7): the packed tarball installed into an empty folder (no overrides), a
 * deno.json there so that `import … from "inferkit"` is that installed package, the kernel of the `deno` npm package
 * (a devDependency) registered under a per-test HOME (never a global kernel), and notebooks/deno/01-forecast.ipynb
 * run headless with Debian's `nbconvert --execute`. Charts need Chromium (/usr/bin/chromium, as the tslab tests).
 */
const run = promisify(execFile);
const REPO = process.cwd();
const PY = '/usr/bin/python3';
const KERNEL = 'inferkit-deno';
/** npm's own variables (from `npm test`) would steer the nested npm; the consumer gets a clean env. */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));

let work = '';
let app = '';
/** Environment of the Jupyter runs: HOME (where `deno jupyter --install` writes) and Deno's cache are the test's own. */
let jupyterEnv: NodeJS.ProcessEnv = {};

interface Cell {
  cell_type: string;
  source: string | string[];
  outputs?: Array<{ output_type: string; name?: string; text?: string | string[]; data?: Record<string, unknown> }>;
}

const joined = (v: unknown): string => (Array.isArray(v) ? v.join('') : typeof v === 'string' ? v : '');

/** A notebook of one code cell for the inferkit Deno kernel. */
const notebook = (id: string, source: string): string =>
  JSON.stringify({
    cells: [{ cell_type: 'code', id, execution_count: null, metadata: {}, outputs: [], source }],
    metadata: { kernelspec: { display_name: 'Deno (inferkit)', language: 'typescript', name: KERNEL } },
    nbformat: 4,
    nbformat_minor: 5,
  });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'inferkit-deno-'));
  app = join(work, 'app');
  const home = join(work, 'home');
  await mkdir(app);
  await mkdir(home);
  const tarball = await packedTarball(REPO, ENV, work);
  await writeFile(join(app, 'package.json'), JSON.stringify(consumerPackageJson(), null, 2));
  await run('npm', ['install', '--no-audit', '--no-fund', tarball], { cwd: app, env: { ...ENV, ONNXRUNTIME_NODE_INSTALL: 'skip' }, maxBuffer: 64 * 1024 * 1024 });
  // The README's deno.json: Deno resolves bare specifiers from the folder's package.json and node_modules.
  await writeFile(join(app, 'deno.json'), `${JSON.stringify({ nodeModulesDir: 'manual' }, null, 2)}\n`);
  await copyFile(join(REPO, 'notebooks/deno/01-forecast.ipynb'), join(app, '01-forecast.ipynb'));

  jupyterEnv = { ...ENV, HOME: home, DENO_DIR: join(work, 'deno-cache'), JUPYTER_PATH: join(home, '.local/share/jupyter'), PYDEVD_DISABLE_FILE_VALIDATION: '1', NO_COLOR: '1' };
  // `deno jupyter --install` writes to $HOME/.local/share/jupyter (it ignores JUPYTER_DATA_DIR): here the test's HOME.
  await run(process.execPath, [join(REPO, 'node_modules/deno/bin.cjs'), 'jupyter', '--install', '--name', KERNEL, '--display', 'Deno (inferkit)'], { env: jupyterEnv, timeout: 60_000 });
  // Deno's kernel outlives a killed client; scripts/deno-kernel.sh (the tslab kernel's watcher) ends it with the client.
  const specPath = join(home, '.local/share/jupyter/kernels', KERNEL, 'kernel.json');
  const spec = JSON.parse(await readFile(specPath, 'utf8')) as { argv: string[] };
  expect(spec.argv.slice(1)).toEqual(['jupyter', '--kernel', '--conn', '{connection_file}']);
  spec.argv = ['/bin/bash', join(REPO, 'scripts/deno-kernel.sh'), ...spec.argv];
  await writeFile(specPath, JSON.stringify(spec, null, 2));
}, 600_000);

afterAll(async () => {
  if (work) {
    await rm(work, { recursive: true, force: true });
  }
});

/** Runs `notebook` (in `app`) with nbconvert in its own process group; rejects with nbconvert's stderr on a failure. */
async function execute(notebook: string, output: string): Promise<Cell[]> {
  const r = await runGroup(PY, ['-m', 'nbconvert', '--to', 'notebook', '--execute', '--ExecutePreprocessor.timeout=180', '--output', output, notebook], { cwd: app, env: jupyterEnv, timeoutMs: 400_000 });
  if (r.code !== 0) {
    throw new TypeError(`nbconvert ${notebook} ${r.timedOut ? 'timed out' : `exited ${r.code}`}:\n${r.stderr.slice(-6000)}`);
  }
  return (JSON.parse(await readFile(join(app, output), 'utf8')) as { cells: Cell[] }).cells.filter((c) => c.cell_type === 'code');
}

describe("inferkit in Deno's Jupyter kernel, installed from its tarball", () => {
  it('notebooks/deno/01-forecast.ipynb runs headless: the tables, the chart as one MIME bundle, an ONNX forecast, no error', { timeout: 420_000 }, async () => {
    const cells = await execute('01-forecast.ipynb', 'executed.ipynb');
    const outputs = outputsOf({ cells });
    expect(outputs.errors).toEqual([]);
    const html = (cell: Cell): string => (cell.outputs ?? []).map((o) => joined(o.data?.['text/html'])).join('');

    // displayFrame through Deno.jupyter.display: the HTML table.
    const [history, forecast, chart, onnx] = cells;
    expect(history.outputs?.map((o) => o.output_type)).toEqual(['display_data']);
    expect(html(history)).toMatch(/>AirPassengers<\/td><td[^>]*>1960-12-01T00:00:00Z<\/td><td[^>]*>432<\/td>/);
    expect(html(history)).toContain('3 rows × 3 columns');

    // statsforecast's wide frame of two models; seasonal naive repeats January 1960 (417) for January 1961.
    const table = html(forecast);
    for (const column of ['seasonal-naive', 'seasonal-naive-lo-80', 'seasonal-naive-hi-80', 'auto-ets', 'auto-ets-lo-80', 'auto-ets-hi-80']) {
      expect(table).toContain(`>${column}</th>`);
    }
    expect(table).toMatch(/>1961-01-01T00:00:00Z<\/td><td[^>]*>417<\/td>/);
    expect(table).toContain('4 rows × 8 columns');

    // displayFigure through Deno.jupyter.display: one display_data with the PNG-backed HTML, plotly's JSON and a line of text.
    expect(chart.outputs?.map((o) => o.output_type)).toEqual(['display_data']);
    const bundle = chart.outputs?.[0].data ?? {};
    expect(Object.keys(bundle).sort()).toEqual(['application/vnd.plotly.v1+json', 'text/html', 'text/plain']);
    const plotly = bundle['application/vnd.plotly.v1+json'] as { data: Array<{ name?: string; x?: unknown[] }>; layout: { width: number; height: number } };
    expect(plotly.data.map((t) => t.name)).toEqual(expect.arrayContaining(['history', 'seasonal-naive', 'seasonal-naive 80%', 'auto-ets', 'auto-ets 80%']));
    expect(plotly.data.find((t) => t.name === 'auto-ets')?.x).toHaveLength(13); // joined to the last observation, then 12 steps
    expect(plotly.layout).toMatchObject({ width: 800, height: 400 });
    expect(joined(bundle['text/plain'])).toMatch(/^\[figure shown: 800×400 PNG, \d+ kB, interactive\]$/);
    const png = Buffer.from(/data:image\/png;base64,([A-Za-z0-9+/=]+)/.exec(joined(bundle['text/html']))?.[1] ?? '', 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([800, 400]);

    // onnxruntime-node's native addon under Deno: a tiny Chronos-Bolt-shaped graph forecasts the same series.
    expect(html(onnx)).toContain('>chronos-bolt-tiny</th>');
    expect(html(onnx)).toContain('3 rows × 3 columns');
    expect(outputs.text).toContain('ONNX forecast: 12 rows, columns id, timestamp, chronos-bolt-tiny');
  });

  it("a cell ending with a Frame shows its table: Deno's kernel calls Symbol.for('Jupyter.display')", { timeout: 240_000 }, async () => {
    const source = 'import { Frame } from "inferkit";\nFrame.fromRows([{ id: "a", y: 1.5 }, { id: "b", y: 2 }])';
    await writeFile(join(app, 'frame.ipynb'), notebook('frame', source));
    // Deno 2.9's kernel may publish the cell's "idle" before its result (measured: 1 small result in 30 lost at
    // load 19 on 2 cores); nbclient then drops the result. That is Deno's race, so a run without output is retried.
    let outputs: Cell['outputs'] = [];
    for (let attempt = 0; attempt < 3 && outputs?.length === 0; attempt++) {
      [{ outputs }] = await execute('frame.ipynb', 'frame-run.ipynb');
    }
    expect(outputs?.map((o) => o.output_type)).toEqual(['execute_result']);
    const data = outputs?.[0].data ?? {};
    expect(Object.keys(data).sort()).toEqual(['text/html', 'text/plain']);
    expect(joined(data['text/html'])).toMatch(/>b<\/td><td[^>]*>2<\/td>/);
    expect(joined(data['text/html'])).toContain('2 rows × 2 columns');
    expect(joined(data['text/plain'])).toContain('[2 rows × 2 columns]');
  });

  it('an ONNX session in a worker thread under Deno answers, and releasing it ends the worker without an uncaught error', { timeout: 120_000 }, async () => {
    // Deno's node:worker_threads has no parentPort.close(): the session worker called it on release, and Deno
    // printed "Uncaught (in worker …) TypeError: port.close is not a function".
    await writeFile(
      join(app, 'worker.ts'),
      [
        'import { loadTokenClassifier, writeNerFixtureRepo } from "inferkit";',
        'const dir = await Deno.makeTempDir({ prefix: "ner-" });',
        'await writeNerFixtureRepo(`${dir}/ner`);',
        'const ner = await loadTokenClassifier(`${dir}/ner`, { modelName: "ner", session: { worker: true }, tokenizerEngine: "tokenizers" });',
        'console.log(JSON.stringify((await ner.predictTokenIds(["john is in paris"])).classIds));',
        'await ner.dispose();',
        'await new Promise((r) => setTimeout(r, 500));',
        'console.log("released");',
        'await Deno.remove(dir, { recursive: true });',
      ].join('\n'),
    );
    const r = await run(process.execPath, [join(REPO, 'node_modules/deno/bin.cjs'), 'run', '-A', 'worker.ts'], { cwd: app, env: jupyterEnv, timeout: 100_000 });
    expect(r.stdout.trim()).toBe('[[0,3,0,0,7,0]]\nreleased');
    expect(r.stderr).not.toMatch(/Uncaught|error/i);
  });

  it("a replica pool under Deno maps one packed copy made by the package's copy script, and answers as one session does", { timeout: 120_000 }, async () => {
    // The pool's packed copy is made in a child process (node:child_process fork of the package's own script), which
    // Deno runs with its Node compatibility; where no child can start it would fall back to a worker thread.
    const model = join(CONFORMANCE_DIR, 'model');
    const recorded = loadExchanges().find((e) => e.id === 'v1-lc-example');
    await writeFile(
      join(app, 'pool.ts'),
      [
        'import { loadTokenClassifier } from "inferkit";',
        'const cacheDir = await Deno.makeTempDir({ prefix: "ik-cache-" });',
        'const texts = ["My name is Wolfgang and I live in Berlin", "Zürich"];',
        'const answer = async (session: Record<string, unknown>) => {',
        `  const c = await loadTokenClassifier(${JSON.stringify(model)}, { modelName: "bert", cacheDir, graphSource: "checkpoint", session: { worker: true, ...session } });`,
        '  try { return (await c.predictV1({ instances: texts })).predictions; } finally { await c.dispose(); }',
        '};',
        'const pool = await answer({ replicas: 2 });',
        'const one = await answer({});',
        'const graphs = [...Deno.readDirSync(`${cacheDir}/graphs`)].map((e) => e.name).filter((n) => n.startsWith("packed-"));',
        'const complete = graphs.map((g) => { try { return Deno.statSync(`${cacheDir}/graphs/${g}/complete.json`).isFile; } catch { return false; } });',
        'console.log(JSON.stringify({ same: JSON.stringify(pool) === JSON.stringify(one), packed: graphs.length, complete }));',
        'console.log(JSON.stringify(pool));',
        'await Deno.remove(cacheDir, { recursive: true });',
      ].join('\n'),
    );
    const r = await run(process.execPath, [join(REPO, 'node_modules/deno/bin.cjs'), 'run', '-A', 'pool.ts'], { cwd: app, env: jupyterEnv, timeout: 100_000 });
    const [summary, predictions] = r.stdout.trim().split('\n');
    expect(JSON.parse(summary ?? '{}'), r.stderr).toEqual({ same: true, packed: 1, complete: [true] });
    // KServe's recorded answer for the first text (kserve-hf exchange v1-lc-example, the same text).
    expect(recorded?.request.body).toEqual({ instances: ['My name is Wolfgang and I live in Berlin'] });
    expect((JSON.parse(predictions ?? '[]') as unknown[])[0]).toEqual((recorded?.response.body as { predictions: unknown[] }).predictions[0]);
    expect(r.stderr).not.toMatch(/Uncaught|do not share packed weights/i);
  });

  it('a killed headless run (a CI timeout) leaves no Deno kernel running', { timeout: 240_000 }, async () => {
    const pidFile = join(work, 'deno-kernel.pid');
    const source = `await Deno.writeTextFile(${JSON.stringify(pidFile)}, String(Deno.pid));\nawait new Promise((r) => setTimeout(r, 600_000));`;
    await writeFile(join(app, 'hang.ipynb'), notebook('hang', source));
    // What a CI timeout does: kill the runner's whole process group. The kernel lives in its own session.
    await expectKilledRunLeavesNoKernel({ command: PY, args: ['-m', 'nbconvert', '--to', 'notebook', '--execute', '--output', 'hang-run.ipynb', 'hang.ipynb'], cwd: app, env: jupyterEnv, pidFile, kernel: 'Deno' });
  });
});
