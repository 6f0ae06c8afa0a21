import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { InferkitError } from '../errors.js';

/** The folder's kernel: its name (`inferkit-<folder>`), display name, and where it was installed. */
export interface KernelInstall {
  name: string;
  displayName: string;
  python: string;
  /** The kernelspec folder jupyter_client wrote. */
  dir: string;
}

/** An executable's path on PATH, or undefined. */
function onPath(command: string, path: string): string | undefined {
  for (const dir of path.split(delimiter).filter((d) => d !== '')) {
    const file = join(dir, command);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The interpreter of a script's `#!` line (`#!/opt/conda/bin/python3.12` → that path). */
function shebangPython(file: string): string | undefined {
  try {
    const first = readFileSync(file, 'utf8').split('\n', 1)[0];
    const m = /^#!\s*(\S*python[\d.]*)\s*$/.exec(first);
    return m?.[1];
  } catch {
    return undefined;
  }
}

/**
 * Pythons to try, in order: the one asked for; the one the `jupyter` command on PATH runs with; `python3`; `python`.
 * Each as given or resolved on `path`.
 */
export function pythonCandidates(path: string, asked?: string): string[] {
  if (asked !== undefined) {
    return [asked];
  }
  const jupyter = onPath('jupyter', path);
  const fromJupyter = jupyter === undefined ? undefined : shebangPython(jupyter);
  const list = [fromJupyter, onPath('python3', path), onPath('python', path)].filter((p): p is string => p !== undefined);
  return [...new Set(list)];
}

/** The first candidate that can import jupyter_client (what registers a kernel), with what the others said. */
export function findJupyterPython(candidates: readonly string[]): { python?: string; tried: string[] } {
  const tried: string[] = [];
  for (const python of candidates) {
    const r = spawnSync(python, ['-c', 'import jupyter_client'], { encoding: 'utf8', timeout: 30_000 });
    if (r.status === 0) {
      return { python, tried };
    }
    tried.push(`${python} (${r.error ? r.error.message : r.stderr.trim().split('\n').pop() || `exit ${r.status}`})`);
  }
  return { tried };
}

const INSTALL_PY = `
import json, os, sys, tempfile
from jupyter_client.kernelspec import KernelSpecManager
name, spec, prefix = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
with tempfile.TemporaryDirectory() as td:
    os.chmod(td, 0o755)
    with open(os.path.join(td, 'kernel.json'), 'w') as f:
        json.dump(spec, f, indent=1, sort_keys=True)
    print(KernelSpecManager().install_kernel_spec(td, name, user=not prefix, prefix=prefix or None, replace=True))
`;

/**
 * Registers the folder's own tslab (`tslabBinary`) as the Jupyter kernel `name` with `python`'s jupyter_client:
 * in the user's kernel folder (Jupyter's data dir, `JUPYTER_DATA_DIR` if set), or under `prefix`
 * (`<prefix>/share/jupyter/kernels/<name>`, found with `JUPYTER_PATH=<prefix>/share/jupyter`). Never the
 * shared `tslab` kernel: the name and the binary are this folder's. Returns the kernelspec folder.
 */
export function installKernel(python: string, name: string, displayName: string, tslabBinary: string, prefix?: string): KernelInstall {
  const spec = { argv: [tslabBinary, 'kernel', '--config-path', '{connection_file}'], display_name: displayName, language: 'typescript' };
  const r = spawnSync(python, ['-c', INSTALL_PY, name, JSON.stringify(spec), prefix ?? ''], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) {
    throw new InferkitError('config', `${python} could not register the kernel: ${r.error?.message ?? r.stderr.trim()}`);
  }
  return { name, displayName, python, dir: r.stdout.trim().split('\n').pop() ?? '' };
}
