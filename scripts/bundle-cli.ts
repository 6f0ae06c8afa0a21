// Bundles `inferkit validate` into one script with a V8 code cache (issue 26 item 6: start-up CPU). tsc's
// dist/ makes node resolve, read and compile some 200 files for `validate` (zod, yaml, the contract, the CRD
// schema) one by one: 0.86 s CPU on the shared box. Here they become dist/cli/inferkit-validate.cjs (minified,
// zod tree-shaken: its 40 locales dropped, see zodNamespace) and dist/cli/inferkit-validate.cjs.cache, the V8
// code of a run over the examples; bin/inferkit.js runs that pair for `validate` (see bench/cli-startup.ts).
// Every other command line still runs tsc's dist/cli/main.js. Run after tsc: `npm run build`.
//
// CommonJS, not an ES module: Node 20 keeps no code cache for ES modules (module.enableCompileCache is Node 22),
// but `vm.Script` takes one for a script.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The bundle's path under a package root; bin/inferkit.js looks for it there. */
export const VALIDATE_BUNDLE = 'dist/cli/inferkit-validate.cjs';

/** Packages inlined in the bundle; any other bare import stays a `require` from node_modules. */
const INLINED_PACKAGES = /^(commander|yaml|zod)(\/|$)/;

/** Options of {@link bundleCli}. */
export interface BundleCliOptions {
  /** The package root to write into (`<root>/dist/cli/…`); its `bin/inferkit.js` records the code cache. @default the repository */
  root?: string;
}

/**
 * Writes `<root>/dist/cli/inferkit-validate.cjs` and its code cache (recorded by running `<root>/bin/inferkit.js
 * validate` over the examples and a manifest with errors, so the code of both outcomes is cached). Returns both paths.
 */
export async function bundleCli(options: BundleCliOptions = {}): Promise<{ bundle: string; cache: string }> {
  const esbuild = await import('esbuild');
  const root = options.root ?? ROOT;
  const bundle = join(root, VALIDATE_BUNDLE);
  const cache = `${bundle}.cache`;
  await rm(cache, { force: true });
  await esbuild.build({
    entryPoints: [join(ROOT, 'src/cli/main.ts')],
    outfile: bundle,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    logLevel: 'warning',
    // package-info.ts finds package.json from its own URL: the bundle's, two folders below the root as in dist/.
    define: { 'import.meta.url': '__inferkitMetaUrl' },
    banner: { js: "var __inferkitMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [otherCommandsExternal(), packagesExternal(), zodNamespace(), lazyChildProcess()],
  });
  await recordCodeCache(root, cache);
  return { bundle, cache };
}

/** The other commands are never reached from this bundle (bin/ sends it `validate` only): left as imports. */
function otherCommandsExternal(): Plugin {
  return {
    name: 'inferkit-other-commands',
    setup(build) {
      build.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) =>
        args.importer.endsWith(join('src', 'cli', 'lazy-commands.ts')) && args.path !== './validate.js' ? { path: args.path, external: true } : undefined);
    },
  };
}

function packagesExternal(): Plugin {
  return {
    name: 'inferkit-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('node:') || INLINED_PACKAGES.test(args.path) ? undefined : { path: args.path, external: true }));
    },
  };
}

/**
 * `import { z } from 'zod'` binds zod's whole namespace object, locales included (360 kB of the 750 kB
 * esbuild would inline); `import * as z` from zod's own entry lets esbuild keep only what is used. The
 * rewrite is textual and only for that exact line: any other form of import is bundled as written.
 */
function zodNamespace(): Plugin {
  const classic = join(ROOT, 'node_modules/zod/v4/classic/external.js');
  return {
    name: 'inferkit-zod-namespace',
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        return { contents: text.replaceAll("import { z } from 'zod';", `import * as z from ${JSON.stringify(classic)};`), loader: 'ts' };
      });
    },
  };
}

/**
 * commander requires `node:child_process` as it loads (for subcommands that are executables, which inferkit has
 * none of); loading that builtin costs ~8 ms of CPU, 3% of a whole `validate`. In the bundle it is a proxy that
 * loads the builtin on first use, so commander's code is unchanged.
 */
function lazyChildProcess(): Plugin {
  const namespace = 'inferkit-lazy-builtin';
  return {
    name: 'inferkit-lazy-child-process',
    setup(build) {
      build.onResolve({ filter: /^(node:)?child_process$/ }, (args) => (args.namespace === namespace ? undefined : { path: 'child_process', namespace }));
      build.onLoad({ filter: /.*/, namespace }, () => ({
        contents: "let loaded; module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require('node:child_process'))[key] });",
        loader: 'js',
      }));
    },
  };
}

const BROKEN = `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: Bad_Name
spec:
  predictor:
    modle: {}
    model:
      modelFormat:
        name: huggingface
      protocolVersion: v3
      args: [--model_id=theta, --season=x, --seasn=2, --task=forecast]
---
apiVersion: v1
kind: Secret
metadata:
  name: tok
stringData:
  HF_TOKEN: hf_exampleToken123
`;

async function recordCodeCache(root: string, cache: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'inferkit-code-cache-'));
  try {
    await writeFile(join(dir, 'broken.yaml'), BROKEN);
    const run = spawnSync(process.execPath, [join(root, 'bin/inferkit.js'), 'validate', join(ROOT, 'examples'), join(dir, 'broken.yaml')], {
      env: { ...process.env, INFERKIT_CODE_CACHE: 'write' },
      encoding: 'utf8',
    });
    if (!existsSync(cache) || !run.stdout.includes('documents[0].metadata.name')) {
      throw new Error(`bundle-cli: the bundled validate did not run as expected (exit ${String(run.status)}):\n${run.stdout}${run.stderr}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const esbuildMissing = await import('esbuild').then(() => false, () => true);
  if (esbuildMissing) {
    // esbuild comes with tsx and vitest (dev dependencies); without it bin/inferkit.js runs tsc's main.js.
    process.stderr.write(`bundle-cli: esbuild is not installed; no ${VALIDATE_BUNDLE} (the CLI runs dist/cli/main.js)\n`);
  } else {
    const { bundle, cache } = await bundleCli();
    process.stdout.write(`bundle-cli: ${bundle} and its code cache ${cache}\n`);
  }
}
