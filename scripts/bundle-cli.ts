// Bundles the CLI's quick paths into dist/cli/inferkit.js (issue 26 item 6): `inferkit --version` and
// `inferkit validate` start in a fraction of the CPU that the 200-odd files of dist/ + zod + yaml cost to
// resolve and compile one by one (0.66 s → see bench/cli-startup.ts). Run after tsc: `npm run build`.
//
// What is inlined: src/cli/main.ts, the `validate` command and everything it imports, and the packages
// commander, yaml and zod (tree-shaken: zod's 40 locales are dropped, see zodNamespace). Every other
// command stays a dynamic import of tsc's own dist/cli/<command>.js beside the bundle, so the server, the
// cluster client, ONNX Runtime and their worker files load exactly as before. bin/inferkit.js runs this
// file when it exists and dist/cli/main.js otherwise (tsc alone, or a build without esbuild).
import { readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metafile, Plugin } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The commands the bundle carries; the others load from tsc's output (see the header). */
export const BUNDLED_COMMANDS: readonly string[] = ['validate'];

/** Packages inlined in the bundle; any other bare import stays a runtime import from node_modules. */
const INLINED_PACKAGES = /^(commander|yaml|zod)(\/|$)/;

/** Options of {@link bundleCli}. */
export interface BundleCliOptions {
  /** Folder of the bundle: tsc's `dist/cli` (the other commands are imported from there). @default <repo>/dist/cli */
  outdir?: string;
  /** Minify (smaller files parse faster). @default true */
  minify?: boolean;
}

/** Writes `inferkit.js` (+ its lazily loaded `inferkit-*.js` chunks) into `outdir`; returns esbuild's metafile (inputs → outputs). */
export async function bundleCli(options: BundleCliOptions = {}): Promise<Metafile> {
  const esbuild = await import('esbuild');
  const outdir = options.outdir ?? join(ROOT, 'dist/cli');
  // Chunk names carry a hash: the previous build's chunks would pile up beside the new ones.
  const old = await readdir(outdir).catch(() => [] as string[]);
  await Promise.all(old.filter((f) => /^inferkit(-[A-Z0-9]+)?\.js(\.LEGAL\.txt)?$/.test(f)).map((f) => rm(join(outdir, f), { force: true })));
  const result = await esbuild.build({
    entryPoints: { inferkit: join(ROOT, 'src/cli/main.ts') },
    outdir,
    chunkNames: 'inferkit-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: options.minify ?? true,
    legalComments: 'linked',
    metafile: true,
    logLevel: 'warning',
    // commander is CommonJS: its require('node:events') needs a require in an ES module.
    banner: { js: "import { createRequire as __inferkitRequire } from 'node:module'; const require = __inferkitRequire(import.meta.url);" },
    plugins: [otherCommandsExternal(), packagesExternal(), zodNamespace()],
  });
  return result.metafile;
}

/** `import('./serve.js')` in lazy-commands.ts stays as it is: it loads tsc's dist/cli/serve.js at run time. */
function otherCommandsExternal(): Plugin {
  return {
    name: 'inferkit-other-commands',
    setup(build) {
      build.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) => {
        if (!args.importer.endsWith(join('src', 'cli', 'lazy-commands.ts'))) {
          return undefined;
        }
        const name = args.path.slice(2, -3);
        return BUNDLED_COMMANDS.includes(name) ? undefined : { path: args.path, external: true };
      });
    },
  };
}

function packagesExternal(): Plugin {
  return {
    name: 'inferkit-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:') || INLINED_PACKAGES.test(args.path)) {
          return undefined;
        }
        return { path: args.path, external: true };
      });
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

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const esbuildMissing = await import('esbuild').then(() => false, () => true);
  if (esbuildMissing) {
    // esbuild comes with tsx and vitest (dev dependencies); without it bin/inferkit.js runs tsc's main.js.
    process.stderr.write('bundle-cli: esbuild is not installed; no dist/cli/inferkit.js (the CLI runs dist/cli/main.js)\n');
  } else {
    const files = Object.keys((await bundleCli()).outputs);
    process.stdout.write(`bundle-cli: ${files.length} files in dist/cli (inferkit.js and its chunks)\n`);
  }
}
