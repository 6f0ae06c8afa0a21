import type { Command } from 'commander';
import { InferkitError } from '../errors.js';
import { clusterFromFlags, parseDuration, withClusterFlags, type ClusterFlags } from './cluster-options.js';
import { manifestFiles, readManifestFile } from './manifest-files.js';
import { progressLine } from './wait.js';

interface ApplyFlags extends ClusterFlags {
  wait?: boolean;
  timeout: string;
  dryRun?: string;
  allowInlineSecrets?: boolean;
}

/** Registers `inferkit apply FILE… [-n NS] [--context C] [--wait] [--timeout 10m] [--dry-run=server]`. */
export function registerApplyCommand(program: Command): void {
  withClusterFlags(
    program
      .command('apply')
      .description('server-side apply manifest files to the cluster of your kubeconfig (Secrets first), like `kubectl apply -f`')
      .argument('<files...>', 'manifest YAML files (InferenceServices and Secrets), or folders of them'),
  )
    .option('--wait', 'then wait until every InferenceService is Ready')
    .option('--timeout <duration>', 'longest wait with --wait', '10m')
    .option('--dry-run <mode>', 'server: let the API server validate without storing anything')
    .option('--allow-inline-secrets', 'apply even when env[].value holds a credential in clear (a warning instead of an error)')
    .action(async (files: string[], flags: ApplyFlags) => {
      if (flags.dryRun !== undefined && flags.dryRun !== 'server') {
        throw new InferkitError('invalid_request', `--dry-run: only "server" is supported, got "${flags.dryRun}"`, { param: 'dry-run' });
      }
      const timeoutMs = parseDuration(flags.timeout);
      const { parseManifest } = await import('../manifest/validate-manifest.js');
      const docs = [];
      for (const file of await manifestFiles(files)) {
        const text = await readManifestFile(file);
        try {
          // The same checks as `inferkit validate`, before anything reaches the API server.
          docs.push(...(await parseManifest(text, { allowInlineSecrets: flags.allowInlineSecrets === true })));
        } catch (e) {
          throw e instanceof InferkitError ? new InferkitError(e.code, `${file}: ${e.message}`, { cause: e, param: e.param }) : e;
        }
      }
      const c = await clusterFromFlags(flags);
      const dryRun = flags.dryRun === 'server';
      for (const r of await c.apply(docs, { dryRun })) {
        process.stdout.write(`${r.resource}/${r.name} ${r.action}${dryRun ? ' (server dry run)' : ''}\n`);
      }
      if (flags.wait && !dryRun) {
        for (const d of docs.filter((x) => x.kind === 'InferenceService')) {
          const opts = d.metadata.namespace ? { namespace: d.metadata.namespace } : {};
          await c.waitReady(d.metadata.name, { ...opts, timeoutMs, onProgress: (e) => process.stderr.write(progressLine(e)) });
          process.stdout.write(`inferenceservice.serving.kserve.io/${d.metadata.name} condition met\n`);
        }
      }
    });
}
