#!/usr/bin/env node
// The `inferkit` command: runs the compiled CLI (dist/) in this very process, so signals reach the
// server and start-up stays short. dist/ is built by `npm run build` (and by `npm pack`'s prepack);
// in a clone without a build, use `npm run inferkit -- …` (runs src/ through tsx).
//
// Start-up CPU (issue 26; bench/cli-startup.ts): a bare `--version` is answered here from package.json, without
// loading anything; `validate` runs dist/cli/inferkit-validate.cjs, one bundled script (scripts/bundle-cli.ts), with
// the V8 code cache the build recorded for it; everything else runs tsc's dist/cli/main.js, which loads the
// command it names.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const path = (rel) => fileURLToPath(new URL(rel, import.meta.url));
const mtime = (file) => statSync(file).mtimeMs;
const args = process.argv.slice(2);
const main = path('../dist/cli/main.js');
const validateBundle = path('../dist/cli/inferkit-validate.cjs');

// The rules of commandsFor (src/cli/lazy-commands.ts): nothing but version flags → the version; else the first
// word that is not a flag names the command.
if (args.length > 0 && args.every((a) => a === '-V' || a === '--version')) {
  const pkg = JSON.parse(readFileSync(path('../package.json'), 'utf8'));
  process.stdout.write(`${typeof pkg.version === 'string' ? pkg.version : 'unknown'}\n`);
} else if (args.find((a) => !a.startsWith('-')) === 'validate' && existsSync(validateBundle) && (!existsSync(main) || mtime(validateBundle) >= mtime(main))) {
  // (A bundle older than tsc's output, from a build that ran tsc alone, would be stale: main.js then.)
  runScript(validateBundle);
} else if (existsSync(main)) {
  await import(new URL('../dist/cli/main.js', import.meta.url).href);
} else {
  process.stderr.write(
    'inferkit: dist/cli/main.js is missing (a source checkout without a build).\n' +
      '  build it: npm run build    or run from source: npm run inferkit -- <command>\n',
  );
  process.exitCode = 1;
}

/**
 * Runs a CommonJS script with its code cache (`FILE.cache`, used when not older than the script; V8 itself
 * refuses a cache from another V8 version or flags and compiles). INFERKIT_CODE_CACHE=write records the cache
 * when the process ends: the build does that once.
 */
function runScript(file) {
  const cacheFile = `${file}.cache`;
  const record = process.env.INFERKIT_CODE_CACHE === 'write';
  const cachedData = !record && existsSync(cacheFile) && mtime(cacheFile) >= mtime(file) ? readFileSync(cacheFile) : undefined;
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`;
  const script = new Script(source, { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  if (record) {
    process.once('beforeExit', () => writeFileSync(cacheFile, script.createCachedData()));
  }
}
