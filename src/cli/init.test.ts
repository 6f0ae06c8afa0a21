import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { folderPackageJson, slugOf } from './init-files.js';

const run = promisify(execFile);
/** Folders the tests made, removed at the end. */
const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map((d) => rm(d, { recursive: true, force: true })));
});
/** A new temp folder, removed after the tests. */
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'inferkit-init-'));
  made.push(dir);
  return dir;
}
const CLI = ['node_modules/.bin/tsx', 'src/cli/main.ts'];

/** `inferkit init` from the source; resolves to stdout and the exit code (non-zero does not reject). */
async function init(args: string[]): Promise<{ stdout: string; code: number }> {
  return run(CLI[0], [CLI[1], 'init', ...args], { timeout: 60_000 }).then(
    (r) => ({ stdout: r.stdout, code: 0 }),
    (e: { stdout?: string; code?: number }) => ({ stdout: e.stdout ?? '', code: e.code ?? -1 }),
  );
}

describe('inferkit init (files and kernel; the install from the tarball is in test/integration/package-install.test.ts)', () => {
  it('writes package.json, .gitignore and an example notebook whose kernel is the folder\'s own, registered under the prefix', async () => {
    const work = await tempDir();
    const folder = join(work, 'Sales Q3');
    const r = await init([folder, '--no-install', '--kernel-prefix', join(work, 'jp'), '--python', '/usr/bin/python3']);
    expect(r.code, r.stdout).toBe(0);
    expect(JSON.parse(await readFile(join(folder, 'package.json'), 'utf8'))).toMatchObject({ name: 'sales-q3', private: true, dependencies: { inferkit: expect.stringMatching(/^\^\d/), tslab: '1.0.22' } });
    const nb = JSON.parse(await readFile(join(folder, 'forecast.ipynb'), 'utf8')) as { metadata: { kernelspec: { name: string } }; cells: Array<{ source: string[] }> };
    expect(nb.metadata.kernelspec).toEqual({ display_name: 'TypeScript (Sales Q3)', language: 'typescript', name: 'inferkit-sales-q3' });
    expect(nb.cells.flatMap((c) => c.source).join('')).toContain("from 'inferkit'");
    const spec = JSON.parse(await readFile(join(work, 'jp/share/jupyter/kernels/inferkit-sales-q3/kernel.json'), 'utf8')) as { argv: string[]; display_name: string };
    expect(spec.argv).toEqual([join(folder, 'node_modules/.bin/tslab'), 'kernel', '--config-path', '{connection_file}']);
    expect(r.stdout).toContain(`Next: cd '${folder}' && jupyter lab forecast.ipynb`);
  });

  it('keeps existing files (a package.json only gains the missing dependencies); without a Python that has Jupyter it says what to do and exits 1', async () => {
    const folder = await tempDir();
    await writeFile(join(folder, 'package.json'), JSON.stringify({ name: 'mine', dependencies: { tslab: '1.0.20' } }));
    await writeFile(join(folder, '.gitignore'), 'secret.txt\n');
    const r = await init([folder, '--no-install', '--python', '/bin/false']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('added inferkit/tslab to package.json, kept .gitignore, wrote forecast.ipynb');
    expect(r.stdout).toContain('No Python with Jupyter found (tried: /bin/false (exit 1)), so no kernel was registered.');
    expect(r.stdout).toContain('--python /path/to/that/python');
    expect(JSON.parse(await readFile(join(folder, 'package.json'), 'utf8'))).toEqual({ name: 'mine', dependencies: { tslab: '1.0.20', inferkit: expect.stringMatching(/^\^/) } });
    expect(await readFile(join(folder, '.gitignore'), 'utf8')).toBe('secret.txt\n');
  });

  it('names packages and kernels from any folder name', () => {
    expect([slugOf('My Notebooks'), slugOf('__x__'), slugOf('日本')]).toEqual(['my-notebooks', 'x__', 'notebooks']);
    expect(folderPackageJson('a', 'file:../inferkit.tgz', { name: 'a', devDependencies: { inferkit: '1' } }).dependencies).toEqual({ tslab: '1.0.22' });
  });
});
