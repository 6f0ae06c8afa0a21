import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/fixtures/run-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inferkit-serve-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('inferkit serve', () => {
  it('refuses a manifest with an unknown field before loading anything, naming the file, the path and the right name', async () => {
    const example = await readFile('examples/token-classification.yaml', 'utf8');
    expect(example).toContain('resources:');
    const typo = join(dir, 'typo.yaml');
    await writeFile(typo, example.replace('resources:', 'resource:'));
    const r = await runCli(['serve', typo, '--port', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`${typo}: manifest: documents[0].spec.predictor.model.resource: unknown field "resource"; did you mean "resources"?`);
  });

  it('refuses a forecast arg the model would not use (the shipped forecast example on Chronos-Bolt with --season)', async () => {
    const example = await readFile('examples/forecast.yaml', 'utf8');
    const chronos = join(dir, 'chronos-season.yaml');
    await writeFile(chronos, example.replace('--model_id=baseline/seasonal-naive', '--model_id=amazon/chronos-bolt-small\n        - --season=24'));
    const r = await runCli(['serve', chronos, '--port', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`inferkit: ${chronos}: manifest: documents[0].spec.predictor.model.args: --season is used only by the baselines `
      + '--model_id=seasonal-naive, theta, auto-ets, mstl, auto-arima and stat-ensemble; model "amazon/chronos-bolt-small" does not use it: remove the arg or change --model_id');
  });
  it('reads a folder as its manifest files, as kubectl apply -f DIR does; a missing path or a folder without manifests is one clear line', async () => {
    const folder = join(dir, 'manifests');
    await mkdir(folder);
    await writeFile(join(folder, 'notes.txt'), 'not a manifest');
    const empty = await runCli(['serve', folder, '--port', '0']);
    expect(empty).toMatchObject({ code: 1, stderr: `inferkit: ${folder}: a folder without manifest files (*.yaml, *.yml or *.json)\n` });
    // The folder's YAML files are read (and checked) in name order: the typo in b.yaml is reported.
    await writeFile(join(folder, 'a.yaml'), await readFile('examples/forecast.yaml', 'utf8'));
    await writeFile(join(folder, 'b.yaml'), (await readFile('examples/token-classification.yaml', 'utf8')).replace('resources:', 'resource:'));
    const typo = await runCli(['serve', folder, '--port', '0']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain(`${join(folder, 'b.yaml')}: manifest: documents[0].spec.predictor.model.resource: unknown field "resource"`);
    const validate = await runCli(['validate', folder]);
    expect(validate.stdout.split('\n')[0]).toBe(`${join(folder, 'a.yaml')}: ok (1 document)`);
    expect(validate.stdout).toContain(`${join(folder, 'b.yaml')}: documents[0].spec.predictor.model.resource: unknown field "resource"`);
    const missing = await runCli(['serve', join(dir, 'nosuch.yaml'), '--port', '0']);
    expect(missing).toMatchObject({ code: 1, stderr: `inferkit: cannot read ${join(dir, 'nosuch.yaml')} (ENOENT)\n` });
  });
});

describe('inferkit serve and validate on a YAML alias bomb (issue 28 N6)', () => {
  it('print one line naming the file, no stack trace', async () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const [i, n] of [...'bcdefghi'].entries()) {
      lines.push(`${n}: &${n} [${Array.from({ length: 9 }, () => `*${'abcdefghi'[i]}`).join(',')}]`);
    }
    const bomb = join(dir, 'bomb.yaml');
    await writeFile(bomb, `${lines.join('\n')}\n`);
    const served = await runCli(['serve', bomb, '--port', '0']);
    expect(served).toMatchObject({ code: 1, stderr: `inferkit: ${bomb}: manifest: documents[0]: YAML cannot be read: too many aliases (more than 100 expansions: an alias bomb?)\n` });
    const validated = await runCli(['validate', bomb]);
    expect(validated.code).toBe(1);
    expect(validated.stdout + validated.stderr).toBe(`${bomb}: documents[0]: YAML cannot be read: too many aliases (more than 100 expansions: an alias bomb?)\n`);
  });
});
