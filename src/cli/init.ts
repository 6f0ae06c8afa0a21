import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { InferkitError } from '../errors.js';
import { GITIGNORE, exampleNotebook, folderPackageJson, slugOf } from './init-files.js';
import { findJupyterPython, installKernel, pythonCandidates } from './init-kernel.js';
import { cliVersion } from './package-info.js';

/** Flags of `inferkit init`. */
interface InitFlags {
  python?: string;
  inferkit?: string;
  install: boolean;
  kernelPrefix?: string;
}

/**
 * Registers `inferkit init [folder]`: a ready notebook folder — package.json depending on inferkit and tslab,
 * `npm install` run there, the folder's own tslab registered as a Jupyter kernel named after the folder
 * (with the Python that has Jupyter), an example notebook importing from 'inferkit', and a .gitignore.
 * Files that exist are kept (a package.json only gains the two dependencies it lacks); running it again is safe.
 */
export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description('make FOLDER (default: this one) a notebook folder: package.json, npm install, its own tslab kernel, an example notebook, .gitignore')
    .argument('[folder]', 'the folder, created if missing', '.')
    .option('--python <path>', 'the Python whose Jupyter gets the kernel (default: the one the `jupyter` command runs with, else python3, else python)')
    .option('--inferkit <spec>', 'the inferkit dependency to write (a version range or a file: tarball)', `^${cliVersion()}`)
    .option('--no-install', 'write the files and register the kernel, but do not run npm install')
    .option('--kernel-prefix <dir>', 'register the kernel under DIR/share/jupyter/kernels (then run Jupyter with JUPYTER_PATH=DIR/share/jupyter) instead of your Jupyter data folder')
    .action(async (folder: string, flags: InitFlags) => {
      await initFolder(folder, flags);
    });
}

async function writeIfMissing(file: string, text: string, done: string[]): Promise<void> {
  try {
    await writeFile(file, text, { flag: 'wx' });
    done.push(`wrote ${basename(file)}`);
  } catch (e) {
    if ((e as { code?: string }).code !== 'EEXIST') {
      throw e;
    }
    done.push(`kept ${basename(file)}`);
  }
}

async function initFolder(folder: string, flags: InitFlags): Promise<void> {
  const dir = resolve(folder);
  const name = basename(dir);
  const kernelName = `inferkit-${slugOf(name)}`;
  const displayName = `TypeScript (${name})`;
  await mkdir(dir, { recursive: true });
  const done: string[] = [];

  const pkgFile = join(dir, 'package.json');
  const existing = await readFile(pkgFile, 'utf8').then(
    (t) => JSON.parse(t) as Record<string, unknown>,
    () => undefined,
  );
  const pkg = folderPackageJson(name, flags.inferkit ?? `^${cliVersion()}`, existing);
  if (JSON.stringify(pkg) !== JSON.stringify(existing)) {
    await writeFile(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
    done.push(existing === undefined ? 'wrote package.json' : 'added inferkit/tslab to package.json');
  } else {
    done.push('kept package.json');
  }
  await writeIfMissing(join(dir, '.gitignore'), GITIGNORE, done);
  await writeIfMissing(join(dir, 'forecast.ipynb'), `${JSON.stringify(exampleNotebook(kernelName, displayName), null, 1)}\n`, done);
  process.stdout.write(`${dir}: ${done.join(', ')}\n`);

  if (flags.install) {
    await npmInstall(dir);
  }

  const found = findJupyterPython(pythonCandidates(process.env.PATH ?? '', flags.python));
  if (found.python === undefined) {
    process.stdout.write(
      [
        `No Python with Jupyter found (tried: ${found.tried.join('; ') || 'none on PATH'}), so no kernel was registered.`,
        'Install Jupyter (e.g. `python3 -m pip install jupyterlab`, or Debian: apt install python3-notebook python3-ipykernel),',
        `then run again: npx inferkit init ${folder === '.' ? '' : `${shellWord(folder)} `}--python /path/to/that/python`,
        '',
      ].join('\n'),
    );
    process.exitCode = 1;
    return;
  }
  const kernel = installKernel(found.python, kernelName, displayName, join(dir, 'node_modules', '.bin', 'tslab'), flags.kernelPrefix === undefined ? undefined : resolve(flags.kernelPrefix));
  process.stdout.write(
    [
      `kernel "${kernel.name}" (${kernel.displayName}) → ${kernel.dir}, registered with ${kernel.python}; it runs this folder's tslab.`,
      `Next: ${resolve(folder) === process.cwd() ? '' : `cd ${shellWord(folder)} && `}jupyter lab forecast.ipynb${flags.kernelPrefix === undefined ? '' : `   (with JUPYTER_PATH=${resolve(flags.kernelPrefix)}/share/jupyter)`}`,
      '',
    ].join('\n'),
  );
}

/** A path as one shell word (quoted when it has spaces or other specials). */
function shellWord(text: string): string {
  return /^[\w./~+-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/** `npm install` in `dir`, onnxruntime-node's CUDA download skipped; npm's own variables of an outer `npx` dropped. */
function npmInstall(dir: string): Promise<void> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
  process.stdout.write('npm install …\n');
  return new Promise((done, fail) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['install', '--no-audit', '--no-fund'], {
      cwd: dir,
      env: { ...env, ONNXRUNTIME_NODE_INSTALL: 'skip' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', (e) => fail(new InferkitError('config', `npm install could not start in ${dir}: ${e.message}`, { cause: e })));
    child.once('exit', (code) => (code === 0 ? done() : fail(new InferkitError('config', `npm install failed in ${dir} (exit ${code}); fix the message above and run it again`))));
  });
}
