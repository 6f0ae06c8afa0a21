import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { InferkitError } from '../../errors.js';
import { atBasePriority } from './thread-priority.js';

/** How to start a session worker: the script, and whether it is eval'd bootstrap code. */
export interface WorkerEntry {
  /** A file path (compiled `session-worker.js`) or bootstrap source (with `eval: true`). */
  script: string;
  eval: boolean;
}

/**
 * The folder of this module, without `import.meta` (tslab compiles src to CommonJS, where it is a
 * syntax error): `__dirname` where the module system defines it (CommonJS, vitest), else the
 * module's own URL read from a stack frame (ESM `dist/`).
 */
function thisModuleDir(): string {
  if (typeof __dirname === 'string' && (existsSync(join(__dirname, 'worker-entry.ts')) || existsSync(join(__dirname, 'worker-entry.js')))) {
    return __dirname;
  }
  const stack = new Error().stack ?? '';
  const m = /((?:file:\/\/)?\/[^\s()]*?)\/worker-entry\.(?:ts|js|cjs|mjs)(?::\d+)*/.exec(stack);
  if (m === null) {
    throw new InferkitError('internal', 'cannot locate the session worker script (no module path in the stack); run sessions in-thread (worker: false)');
  }
  return m[1].startsWith('file://') ? fileURLToPath(m[1]) : m[1];
}

/**
 * The entry of worker script `name` (a module of this folder, without extension): compiled (`dist/`), the `.js` file
 * itself; from sources (tsx, vitest, tslab in the repository), bootstrap code that registers tsx's loader in the
 * worker and imports the `.ts` source (a worker does not inherit the parent's TypeScript hooks).
 */
export function workerEntry(name: string): WorkerEntry {
  const script = scriptOf(name, 'esm/api', 'in a worker', 'build the package (dist/) or run in-thread (worker: false)');
  if (script.tsx === undefined) {
    return { script: script.path, eval: false };
  }
  // tsx's ESM API (`exports['./esm/api'].import`): its CommonJS twin cannot register in a worker.
  const boot = `import(${JSON.stringify(pathToFileURL(script.tsx).href)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(pathToFileURL(script.path).href)}); })`;
  return { script: boot, eval: true };
}

/**
 * Script `name` of this folder: the compiled `.js` file; else the `.ts` source, with the ESM file of tsx's export
 * `tsx/<entry>` (resolved through its CommonJS twin), or an error saying what running it `where` needs.
 */
function scriptOf(name: string, entry: string, where: string, instead: string): { path: string; tsx?: string } {
  const dir = thisModuleDir();
  const js = join(dir, `${name}.js`);
  if (existsSync(js)) {
    return { path: js };
  }
  const ts = join(dir, `${name}.ts`);
  try {
    return { path: ts, tsx: createRequire(ts).resolve(`tsx/${entry}`).replace(/\.cjs$/, '.mjs') };
  } catch (cause) {
    throw new InferkitError('internal', `running ${ts} ${where} needs tsx (a dev dependency); ${instead}`, { cause });
  }
}

/**
 * Starts worker script `name` ({@link workerEntry}) with `workerData`, at the priority the calling thread had before
 * `inferkit serve` lowered it (./thread-priority.ts): a worker started later, such as a crashed session's replacement,
 * runs beside the first ones as their equal.
 */
export function startWorker(name: string, workerData: unknown): Worker {
  const entry = workerEntry(name);
  return atBasePriority(() => new Worker(entry.script, { eval: entry.eval, workerData }));
}

/**
 * How to run worker script `name` as a child process instead (`child_process.fork`): the compiled `.js` file itself; from
 * sources, the `.ts` file with tsx's loader imported first (`--import`).
 */
export function childEntry(name: string): { modulePath: string; execArgv: string[] } {
  // tsx's `--import` entry (`exports['./esm'].import`).
  const script = scriptOf(name, 'esm', 'in a child process', 'build the package (dist/)');
  return { modulePath: script.path, execArgv: script.tsx === undefined ? [] : ['--import', pathToFileURL(script.tsx).href] };
}
