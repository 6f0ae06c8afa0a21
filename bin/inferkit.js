#!/usr/bin/env node
// The `inferkit` command: runs the compiled CLI (dist/) in this very process, so signals reach the
// server and start-up stays short. dist/ is built by `npm run build` (and by `npm pack`'s prepack);
// in a clone without a build, use `npm run inferkit -- …` (runs src/ through tsx).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  process.stderr.write(
    'inferkit: dist/cli/main.js is missing (a source checkout without a build).\n' +
      '  build it: npm run build    or run from source: npm run inferkit -- <command>\n',
  );
  process.exit(1);
}
await import(main.href);
