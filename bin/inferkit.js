#!/usr/bin/env node
// The `inferkit` command: runs the compiled CLI (dist/) in this very process, so signals reach the
// server and start-up stays short. dist/ is built by `npm run build` (and by `npm pack`'s prepack);
// in a clone without a build, use `npm run inferkit -- …` (runs src/ through tsx).
//
// Start-up CPU (issue 26, bench/cli-startup.ts): a bare `--version` is answered here from package.json,
// without loading anything; every other command line runs dist/cli/inferkit.js, the bundle that
// scripts/bundle-cli.ts writes (`validate` inlined, the other commands imported from dist/cli/), or
// tsc's dist/cli/main.js where the build made no bundle.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const path = (rel) => fileURLToPath(new URL(rel, import.meta.url));
const args = process.argv.slice(2);
// The same rule as commandsFor (src/cli/lazy-commands.ts): nothing but version flags → the version.
if (args.length > 0 && args.every((a) => a === '-V' || a === '--version')) {
  const pkg = JSON.parse(readFileSync(path('../package.json'), 'utf8'));
  process.stdout.write(`${typeof pkg.version === 'string' ? pkg.version : 'unknown'}\n`);
} else {
  const main = path('../dist/cli/main.js');
  if (!existsSync(main)) {
    process.stderr.write(
      'inferkit: dist/cli/main.js is missing (a source checkout without a build).\n' +
        '  build it: npm run build    or run from source: npm run inferkit -- <command>\n',
    );
    process.exit(1);
  }
  // A bundle older than tsc's output (tsc run alone after a change) would run stale code: main.js then.
  const bundle = path('../dist/cli/inferkit.js');
  const fresh = existsSync(bundle) && statSync(bundle).mtimeMs >= statSync(main).mtimeMs;
  await import(new URL(fresh ? '../dist/cli/inferkit.js' : '../dist/cli/main.js', import.meta.url).href);
}
