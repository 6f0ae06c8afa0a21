import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCli } from '../../scripts/bundle-cli.js';
import { runCli, type CliResult } from '../fixtures/run-cli.js';

// `validate` as bin/inferkit.js runs it, from the bundle and code cache of scripts/bundle-cli.ts, must answer
// exactly as the sources do: same lines, same exit code, for valid and broken manifests alike.

let dir = '';
let bin = '';
let inputs: string[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inferkit-cli-bundle-'));
  // A package folder with the bin and package.json only: no tsc output, so bin/ can run nothing but the bundle.
  await mkdir(join(dir, 'pkg/bin'), { recursive: true });
  await copyFile('package.json', join(dir, 'pkg/package.json'));
  bin = join(dir, 'pkg/bin/inferkit.js');
  await copyFile('bin/inferkit.js', bin);
  const { cache } = await bundleCli({ root: join(dir, 'pkg') });
  expect((await stat(cache)).size).toBeGreaterThan(0);
  const svc = (name: string, args: string) =>
    `apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: ${name}\nspec:\n  predictor:\n    model:\n      modelFormat:\n        name: huggingface\n      args: [${args}]\n`;
  const model = join(dir, 'model');
  await mkdir(model);
  await writeFile(join(model, 'config.json'), JSON.stringify({ architectures: ['LlamaForCausalLM'], model_type: 'llama' }));
  const files: Record<string, string> = {
    'bad.yaml': [
      svc('Bert', '--model_id=o/m, --task=tokn_classification'),
      'apiVersion: apps/v1\nkind: Deployment\n',
      svc('chronos', '--model_id=amazon/chronos-bolt-small, --season=24, --seasn=3'),
      svc('local', `--model_dir=${model}, --task=time_series_forecast`),
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: tok\nstringData:\n  HF_TOKEN: hf_doNotPrintMe123\n',
      svc('unknown-field', '--model_id=theta').replace('    model:', '    modle: {}\n    model:'),
    ].join('---\n'),
    'broken.yaml': 'kind: Secret\nmetadata:\n\tname: x\n',
    'empty.yaml': '',
  };
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(dir, name), text);
  }
  inputs = [...Object.keys(files).map((f) => join(dir, f)), join(dir, 'missing.yaml'), 'examples'];
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

async function runBundle(args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const r = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof r.code === 'number' ? r.code : -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
  }
}

describe('bundleCli', () => {
  // (Other commands run tsc's dist/cli/main.js, which this folder lacks.)
  it('validate prints the same lines and exit code as the sources', { timeout: 120_000 }, async () => {
    for (const extra of [[], ['--allow-inline-secrets']]) {
      const [bundled, sources] = await Promise.all([runBundle(['validate', ...extra, ...inputs]), runCli(['validate', ...extra, ...inputs])]);
      expect(bundled).toEqual(sources);
      expect(bundled.code).toBe(1);
      // The documents reach every check: contract, serve checks, the checkpoint families, the CRD schema, secrets.
      expect(bundled.stdout).toContain('documents[0].metadata.name: expected a lower-case DNS label');
      expect(bundled.stdout).toContain('--season is used only by the baselines');
      expect(bundled.stdout).toMatch(/documents\[3\]\.spec\.predictor\.model\.args: .*LlamaForCausalLM/);
      expect(bundled.stdout).toMatch(/documents\[5\]\.spec\.predictor\.modle: .*did you mean/);
      expect(bundled.stdout).toContain('examples/gated-model.yaml: ok (2 documents)');
      expect(bundled.stdout).not.toContain('hf_doNotPrintMe123');
    }
  });

  it('validate does not load node:child_process (commander requires it for executable subcommands; ~8 ms of start-up CPU)', { timeout: 120_000 }, async () => {
    // A preload that reports, as the process exits, whether the builtin was loaded.
    const probe = join(dir, 'probe.cjs');
    await writeFile(probe, "process.on('exit', () => process.stderr.write(`child_process loaded: ${process.moduleLoadList.some((m) => m === 'NativeModule child_process')}\\n`));\n");
    const run = async (args: string[]) => {
      const { stderr } = await promisify(execFile)(process.execPath, ['--require', probe, ...args], { timeout: 60_000 });
      return stderr;
    };
    expect(await run([bin, 'validate', 'examples'])).toContain('child_process loaded: false');
    // The probe itself can tell: a process that requires it says so.
    expect(await run(['-e', "require('node:child_process')"])).toContain('child_process loaded: true');
  });

  it('answers --version and validate --help as the sources do', { timeout: 120_000 }, async () => {
    for (const args of [['--version'], ['validate', '--help']]) {
      expect(await runBundle(args)).toEqual(await runCli(args));
    }
  });
});
