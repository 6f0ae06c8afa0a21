import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFORMANCE_DIR, loadExchanges } from '../conformance/exchanges.js';
import { waitForText } from '../fixtures/wait-for-text.js';
import { consumerPackageJson, notebookJson, outputsOf } from './package-install-helpers.js';
import { packedTarball } from './packed-tarball.js';
import { http } from './server-http.js';

/**
 * The package as a user gets it: `npm pack` (prepack builds dist/), the tarball installed into an empty
 * folder with the package.json the README tells a consumer to write, then the CLI, a Node ESM import
 * and a tslab notebook run there. Pack + install happen once (the install of onnxruntime-node takes a
 * while; the npm cache is reused); the pack is shared with the other tarball tests of the run (packed-tarball.ts).
 */
const run = promisify(execFile);
const REPO = process.cwd();
const PY = '/usr/bin/python3';
/** npm's own variables (from `npm test`) would steer the nested npm; the consumer gets a clean env. */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
const PACK_AND_INSTALL_TIMEOUT_MS = 600_000;
/** The tslab the README installs beside inferkit in a notebook folder. */
const TSLAB = 'tslab@1.0.22';

let work = '';
let app = '';
let version = '';
/** What the install printed. */
let installLog = '';

beforeAll(async () => {
  version = (JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
  work = await mkdtemp(join(tmpdir(), 'inferkit-pkg-'));
  app = join(work, 'app');
  await mkdir(app);
  const tarball = await packedTarball(REPO, ENV, work);
  await writeFile(join(app, 'package.json'), JSON.stringify(consumerPackageJson(), null, 2));
  // The README's command, install scripts included: onnxruntime-node's is skipped by its documented switch
  // (it would fetch CUDA libraries; without the switch an offline install fails), the rest run.
  const installed = await run('npm', ['install', '--no-audit', '--no-fund', tarball, TSLAB], { cwd: app, env: { ...ENV, ONNXRUNTIME_NODE_INSTALL: 'skip' }, maxBuffer: 64 * 1024 * 1024 });
  installLog = `${installed.stdout}\n${installed.stderr}`;
}, PACK_AND_INSTALL_TIMEOUT_MS);

afterAll(async () => {
  if (work) {
    await rm(work, { recursive: true, force: true });
  }
});

const npx = (args: string[], timeout = 60_000) => run('npx', ['inferkit', ...args], { cwd: app, env: ENV, timeout });

/**
 * `npx inferkit serve …` in `app`, offline, with its own model cache, in its own process group so that whatever a
 * failure leaves behind can be killed (`killGroup`); its stdout and stderr gathered in `output.text`.
 */
function startServe(args: string[], cache: string) {
  const proc = spawn('npx', ['inferkit', 'serve', ...args], {
    cwd: app,
    env: { ...ENV, INFERKIT_CACHE: cache, INFERKIT_OFFLINE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output = { text: '' };
  proc.stdout.on('data', (c: Buffer) => (output.text += c.toString('utf8')));
  proc.stderr.on('data', (c: Buffer) => (output.text += c.toString('utf8')));
  const killGroup = (): void => {
    if (proc.pid !== undefined) {
      try {
        process.kill(-proc.pid, 'SIGKILL');
      } catch {
        // the group is gone: nothing was left behind
      }
    }
  };
  return { proc, output, killGroup };
}

describe('inferkit installed from its tarball into an empty folder', () => {
  it('installs on the Node it supports without engine warnings (no dependency that needs a newer Node)', () => {
    const engine = installLog.split('\n').filter((line) => /EBADENGINE|Unsupported engine/.test(line));
    expect(engine, installLog.slice(-4000)).toEqual([]);
  });

  it('the tarball carries the compiled JS and types, the bin, data sets, examples, the CRD schema and the licence', async () => {
    for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/cli/main.js', 'bin/inferkit.js', 'datasets/classic_series.csv', 'examples/forecast.yaml', 'LICENSE', 'dist/manifest/kserve-crd/inference-service-schema.js']) {
      await expect(readFile(join(app, 'node_modules/inferkit', file)), file).resolves.toBeTruthy();
    }
  });

  it('carries every file its README and docs link to or tell the user to run (the API reference, the chart, the export script)', async () => {
    const root = join(app, 'node_modules/inferkit');
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    const linked = [...readme.matchAll(/\]\(([^)#:]+)\)/g)].map((m) => m[1]);
    expect(linked).toEqual(expect.arrayContaining(['docs/API.md', 'docs/forecast-chart.png']));
    const guide = await readFile(join(root, 'docs/chronos-bolt.md'), 'utf8');
    const scripts = [...guide.matchAll(/python (scripts\/[\w.-]+\.py)/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const file of [...linked, ...scripts]) {
      await expect(readFile(join(root, file)), file).resolves.toBeTruthy();
    }
  });

  it('pulls no danfojs, SheetJS, TensorFlow or request, nothing from a URL and no deprecated package', async () => {
    const lock = JSON.parse(await readFile(join(app, 'node_modules/.package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string }> };
    const names = Object.keys(lock.packages).map((p) => p.slice(p.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(names.filter((n) => /^(danfojs|danfojs-node|xlsx|request|@tensorflow\/.*)$/.test(n))).toEqual([]);
    const resolved = Object.values(lock.packages).map((p) => p.resolved ?? '');
    expect(resolved.filter((r) => r !== '' && !r.startsWith('https://registry.npmjs.org/') && !r.startsWith('file:'))).toEqual([]);
    expect(installLog.split('\n').filter((l) => /deprecated/i.test(l))).toEqual([]);
  });

  it('returns its own frames without danfojs (table text, CSV), and toDanfo says how to get danfojs', async () => {
    await writeFile(
      join(app, 'frames.mjs'),
      [
        "import { readCsv, frameToInputs, forecastToFrame, localForecaster, seasonalNaive, toCsv } from 'inferkit';",
        "const df = await readCsv('node_modules/inferkit/datasets/classic_series.csv');",
        "const nile = frameToInputs(df).find((s) => s.name === 'Nile');",
        'const fc = await localForecaster(seasonalNaive()).forecast({ model: "seasonal-naive", inputs: [nile], options: { horizon: 2 } });',
        'const frame = forecastToFrame(fc);',
        'console.log(frame.shape.join("x"));',
        'console.log(toCsv(frame).split("\\n")[0]);',
        "await frame.toDanfo().catch((e) => console.log(e.code, e.message.split(' (')[0]));",
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, ['frames.mjs'], { cwd: app, env: ENV, timeout: 60_000 });
    expect(stdout.trim().split('\n')).toEqual(['2x3', 'id,timestamp,mean', 'config toDanfo needs danfojs, an optional peer of inferkit: npm install danfojs-node']);
  }, 60_000);

  it('npx inferkit --version prints the package version', async () => {
    const { stdout } = await npx(['--version']);
    expect(stdout.trim()).toBe(version);
  }, 60_000);

  it('npx inferkit validate rejects a wrong value and an unknown field, exits non-zero, names the field and suggests the right one', async () => {
    const example = await readFile(join(app, 'node_modules/inferkit/examples/token-classification-v2.yaml'), 'utf8');
    expect(example).toContain('protocolVersion: v2');
    await writeFile(join(app, 'wrong-value.yaml'), example.replace('protocolVersion: v2', 'protocolVersion: v3'));
    await writeFile(join(app, 'typo.yaml'), example.replace('protocolVersion: v2', 'protocolVersoin: v2'));
    const fail = (file: string): Promise<{ code?: number; stdout?: string } | undefined> =>
      npx(['validate', file]).then(
        () => undefined,
        (e: { code?: number; stdout?: string }) => e,
      );
    const wrong = await fail('wrong-value.yaml');
    expect(wrong?.code).toBe(1);
    expect(wrong?.stdout).toContain('spec.predictor.model.protocolVersion');
    // The CRD schema ships inside the package: the unknown-field check works outside the repo.
    const typo = await fail('typo.yaml');
    expect(typo?.code).toBe(1);
    expect(typo?.stdout).toContain('spec.predictor.model.protocolVersoin: unknown field "protocolVersoin"; did you mean "protocolVersion"?');
  }, 60_000);

  it('npx inferkit serve answers, and SIGTERM to the npx process stops it and frees the port', async () => {
    const { proc, output, killGroup } = startServe(['node_modules/inferkit/examples/forecast.yaml', '--port', '0', '--host', '127.0.0.1'], join(work, 'cache'));
    try {
      const [, url, port] = await waitForText(proc, output, /serving on (http:\/\/127\.0\.0\.1:(\d+))\s/, 30_000);
      await waitForText(proc, output, /models loaded:/, 30_000);
      const fc = await http(url, '/v1/timeseries/forecast', {
        headers: { host: 'chronos-forecast.forecasting.example.com' },
        body: { model: 'chronos-bolt', inputs: [{ type: 'univariate_time_series', name: 's', series: [1, 2, 3, 1, 2, 3, 1, 2, 3], frequency: 'D' }], options: { horizon: 3 } },
      });
      expect(fc.status, fc.text).toBe(200);
      expect((fc.json() as { status: string }).status).toBe('completed');

      const exited = new Promise<void>((r) => proc.once('exit', () => r()));
      proc.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      expect(proc.exitCode !== null || proc.signalCode !== null, 'npx exited').toBe(true);
      // The server (a grandchild of npx) may take a moment longer to notice and close.
      let refused = false;
      for (let i = 0; i < 40 && !refused; i++) {
        refused = await new Promise<boolean>((r) => {
          const socket = connect(Number(port), '127.0.0.1');
          socket.once('connect', () => (socket.destroy(), r(false)));
          socket.once('error', () => r(true));
        });
        if (!refused) {
          await new Promise((r) => setTimeout(r, 250));
        }
      }
      expect(refused, `port ${port} still accepts connections after SIGTERM to npx; output:\n${output.text}`).toBe(true);
      expect(output.text).toMatch(/stopping \((SIGTERM|npm exited)\)/);
    } finally {
      killGroup();
    }
  }, 90_000);

  it('npx inferkit serve on a 16-thread plan builds a checkpoint, opens its replicas on one packed copy made by the installed package, and answers as KServe did', async () => {
    // What a 16-core host gets by default (4 × 4 replicas and a latency session, every session mapping one packed copy
    // made in a child process from the package's own script): the conformance checkpoint, built from its safetensors.
    const exchange = loadExchanges().find((e) => e.id === 'v1-lc-example');
    expect(exchange, 'the recorded exchange v1-lc-example').toBeDefined();
    const manifest = join(work, 'ner.yaml');
    await writeFile(
      manifest,
      [
        'apiVersion: serving.kserve.io/v1beta1',
        'kind: InferenceService',
        'metadata:',
        '  name: ner',
        'spec:',
        '  predictor:',
        '    model:',
        '      modelFormat:',
        '        name: huggingface',
        '      args:',
        '        - --model_name=bert',
        `        - --model_id=${join(CONFORMANCE_DIR, 'model')}`,
        '        - --task=token_classification',
        '        - --graph_source=checkpoint',
        '',
      ].join('\n'),
    );
    const cache = join(work, 'cache-pool');
    const { proc, output, killGroup } = startServe([manifest, '--port', '0', '--host', '127.0.0.1', '--threads', '16'], cache);
    try {
      const [, url] = await waitForText(proc, output, /serving on (http:\/\/127\.0\.0\.1:\d+)\s/, 30_000);
      // The last start-up line: every model's lines are out before it.
      await waitForText(proc, output, /^memory: RSS .* for 1 model/m, 60_000);
      expect(output.text, output.text).toMatch(/READY {2}threads=16 \(4 replicas: 4\+4\+4\+4, latency session: 16\)/);
      expect(output.text, output.text).toMatch(/memory at load: .*; its sessions map one packed copy of the weights/);
      expect(output.text, output.text).toMatch(/graph: built as bert fp32 from model\.safetensors/);
      // The packed copy was made (by the package's copy script, in a child process), and nothing fell back.
      const graphs = await readdir(join(cache, 'graphs'));
      const packed = graphs.filter((g) => /^packed-[0-9a-f]{16}$/.test(g));
      expect(packed, graphs.join(', ')).toHaveLength(1);
      await readFile(join(cache, 'graphs', packed[0] ?? '', 'complete.json'), 'utf8');
      expect(output.text).not.toMatch(/INFERKIT_PACKED_COPY|do not share packed weights/);

      const answer = await http(url, exchange?.request.path ?? '', { headers: { host: 'ner.default.example.com' }, body: exchange?.request.body });
      expect(answer.status, answer.text).toBe(exchange?.response.status);
      expect(answer.json()).toEqual(exchange?.response.body);
    } finally {
      killGroup();
    }
  }, 120_000);

  it("a Node ESM script imports { inferenceService, toYaml } from 'inferkit'", async () => {
    await writeFile(
      join(app, 'check.mjs'),
      [
        "import { inferenceService, toYaml, fromYaml, loadDataset, loadTokenClassifier, writeNerFixtureRepo } from 'inferkit';",
        "const yaml = toYaml(inferenceService({ name: 'esm-check', modelId: 'inferkit/ner-fixture' }));",
        "console.log(fromYaml(yaml)[0].metadata.name, (await loadDataset('classic_series')).length);",
        // An ONNX session in a worker thread, its entry (dist/runtime/worker/session-worker.js) found from the installed package.
        `await writeNerFixtureRepo('./ner');`,
        "const ner = await loadTokenClassifier('./ner', { modelName: 'ner', session: { worker: true } });",
        "console.log(JSON.stringify((await ner.predictTokenIds(['john is in paris'])).classIds));",
        'await ner.dispose();',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, ['check.mjs'], { cwd: app, env: ENV, timeout: 60_000 });
    expect(stdout.trim()).toBe('esm-check 12\n[[0,3,0,0,7,0]]');
  }, 60_000);

  it("a tslab notebook cell imports from 'inferkit' (require(esm), type-checked)", async () => {
    const jupyter = join(work, 'jupyter');
    // The folder's own tslab, registered as the README says (displayFigure reaches the kernel's tslab module).
    const tslab = join(app, 'node_modules/.bin/tslab');
    await run(tslab, ['install', `--python=${PY}`, `--binary=${tslab}`, '--prefix', jupyter], { env: ENV, timeout: 60_000 });
    await writeFile(join(app, 'check.ipynb'), JSON.stringify(notebookJson()));
    await run(
      PY,
      ['-m', 'nbconvert', '--to', 'notebook', '--execute', '--ExecutePreprocessor.timeout=120', '--ExecutePreprocessor.kernel_name=tslab', '--output', 'executed.ipynb', 'check.ipynb'],
      { cwd: app, env: { ...ENV, JUPYTER_PATH: join(jupyter, 'share/jupyter'), PYDEVD_DISABLE_FILE_VALIDATION: '1' }, timeout: 180_000 },
    ).catch((e: { stderr?: string }) => {
      throw new TypeError(`notebook failed:\n${e.stderr ?? String(e)}`);
    });
    const outputs = outputsOf(JSON.parse(await readFile(join(app, 'executed.ipynb'), 'utf8')));
    expect(outputs.errors).toEqual([]);
    expect(outputs.text).toContain('name: notebook-check');
    expect(outputs.text).toContain('data sets: 12');
    expect(outputs.text).toContain('typed: true');
    expect(outputs.text).toContain('worker ids: [[0,3,0,0,7,0]]');
  }, 240_000);

  it('npx inferkit init: the folder gets its own kernel (named after it, registered with the Python that has Jupyter) and an example notebook that runs', async () => {
    const data = join(work, 'jupyter-data');
    // A python3 without Jupyter first on PATH, as a pyenv shim would be: init must not register with it.
    const bin = join(work, 'shim-bin');
    await mkdir(bin);
    await writeFile(join(bin, 'python3'), '#!/bin/sh\necho "ModuleNotFoundError: No module named jupyter_client" >&2\nexit 1\n', { mode: 0o755 });
    const env = { ...ENV, JUPYTER_DATA_DIR: data, PATH: `${bin}:${ENV.PATH ?? ''}` };
    const { stdout } = await run('npx', ['inferkit', 'init', '.'], { cwd: app, env, timeout: 180_000 });
    expect(stdout).toContain('kernel "inferkit-app" (TypeScript (app))');
    expect(stdout).not.toContain(`registered with ${bin}`);
    // Only the folder's kernel, in the Jupyter data folder given; tslab's shared "tslab"/"jslab" kernels are not registered.
    expect(await readdir(join(data, 'kernels'))).toEqual(['inferkit-app']);
    const spec = JSON.parse(await readFile(join(data, 'kernels/inferkit-app/kernel.json'), 'utf8')) as { argv: string[] };
    expect(spec.argv[0]).toBe(join(app, 'node_modules/.bin/tslab'));
    expect(await readFile(join(app, '.gitignore'), 'utf8')).toContain('node_modules/');
    const pkg = JSON.parse(await readFile(join(app, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['inferkit', 'tslab']);

    // The example notebook, run headless with the kernel its metadata names.
    await run(PY, ['-m', 'nbconvert', '--to', 'notebook', '--execute', '--ExecutePreprocessor.timeout=120', '--output', 'forecast-run.ipynb', 'forecast.ipynb'], {
      cwd: app,
      env: { ...env, PYDEVD_DISABLE_FILE_VALIDATION: '1' },
      timeout: 180_000,
    }).catch((e: { stderr?: string }) => {
      throw new TypeError(`example notebook failed:\n${e.stderr ?? String(e)}`);
    });
    const executed = JSON.parse(await readFile(join(app, 'forecast-run.ipynb'), 'utf8')) as { cells: Array<{ outputs?: Array<{ data?: Record<string, unknown> }> }> };
    const outputs = outputsOf(executed as Parameters<typeof outputsOf>[0]);
    expect(outputs.errors).toEqual([]);
    expect(outputs.text).toContain('completed: 24 rows × 5 columns, written to forecasts.csv');
    const html = executed.cells.flatMap((c) => c.outputs ?? []).map((o) => String(o.data?.['text/html'] ?? '')).join('');
    expect(html).toContain('24 rows × 5 columns');
    expect((await readFile(join(app, 'forecasts.csv'), 'utf8')).split('\n')[0]).toBe('id,timestamp,mean,q0.1,q0.9');
  }, 300_000);
});
