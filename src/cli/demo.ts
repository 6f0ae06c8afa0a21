import { join } from 'node:path';
import type { Command } from 'commander';
import { CACHE_DIR_RULE, envCacheDir, envIngress } from '../config.js';
import { DEMO_MANIFESTS } from '../demo/demo-manifests.js';
import { InferkitError } from '../errors.js';
import { hubOptionsFromEnv } from '../hub/hub-options-from-env.js';
import { CLI_PACKAGE_ROOT } from './package-info.js';

interface DemoFlags {
  keep?: boolean;
  port?: string;
  out?: string;
  cache?: string;
  png?: boolean;
  timeout?: string;
}

/**
 * Registers `inferkit demo [MANIFEST…] [--keep] [--port N] [--out DIR] [--cache DIR] [--no-png]`:
 * serves the example manifests offline, sends V1, V2 and forecast requests through the client
 * with the Host header, prints the answers and writes the forecast chart.
 */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('serve the example manifests, call them through the client (V1, V2, forecast) and chart the forecast')
    .argument('[manifests...]', `manifest files (default: ${DEMO_MANIFESTS.join(' ')})`)
    .option('--keep', 'leave the server running (stop with Ctrl-C)')
    .option('--port <port>', 'ingress port; 0 picks a free one (default: 0, or $INGRESS_PORT with --keep)')
    .option('--out <dir>', 'folder for forecast.html / forecast.png (default: out/demo)')
    .option('--cache <dir>', `cache of the built-in fixture models and hub downloads (default: ${envCacheDir()}, from ${CACHE_DIR_RULE})`)
    .option('--no-png', 'write the HTML chart only (no headless Chromium)')
    .option('--timeout <ms>', 'longest wait for the models to load', '60000')
    .action(async (manifests: string[], flags: DemoFlags) => {
      const port = flags.port !== undefined ? Number(flags.port) : flags.keep ? envIngress().port : 0;
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        throw new InferkitError('invalid_request', `--port must be a port number, got "${flags.port ?? ''}"`, { param: 'port' });
      }
      // Loaded here, not at the top, so other commands start without danfojs, onnxruntime and the server.
      const { runDemo } = await import('../demo/run-demo.js');
      const result = await runDemo({
        // The examples shipped with inferkit, wherever it is installed; given files are relative to the cwd.
        manifests: manifests.length > 0 ? manifests : DEMO_MANIFESTS.map((m) => join(CLI_PACKAGE_ROOT, m)),
        port,
        host: envIngress().host,
        outDir: flags.out,
        cacheDir: flags.cache,
        loaderOptions: hubOptionsFromEnv(),
        chromium: flags.png === false ? null : undefined,
        readyTimeoutMs: Number(flags.timeout ?? 60_000),
        keep: flags.keep === true,
        print: (line) => process.stdout.write(`${line}\n`),
      });
      for (const f of result.failures) {
        process.stderr.write(`demo: ${f}\n`);
      }
      if (flags.keep) {
        process.stdout.write('Press Ctrl-C to stop.\n');
        await new Promise<void>((done) => {
          const stop = (): void => {
            process.off('SIGINT', stop).off('SIGTERM', stop);
            void result.server.close().then(done);
          };
          process.on('SIGINT', stop).on('SIGTERM', stop);
        });
      }
      if (result.failures.length > 0) {
        process.exitCode = 1;
      }
    });
}
