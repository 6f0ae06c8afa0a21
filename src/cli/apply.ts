import type { Command } from 'commander';
import { InferkitError } from '../errors.js';
import { clusterFromFlags, parseDuration, withClusterFlags, type ClusterFlags } from './cluster-options.js';
import { parseDryRun, resourceOf } from './kubectl-args.js';
import { manifestFiles, readManifestFile } from './manifest-files.js';
import { progressLine } from './wait.js';

interface ApplyFlags extends ClusterFlags {
  filename?: string[];
  wait?: boolean;
  timeout: string;
  dryRun?: string | boolean;
  allowInlineSecrets?: boolean;
}

/** Registers `inferkit apply [-f] FILE… [-n NS] [--context C] [--wait] [--timeout 10m] [--dry-run=client|server]`. */
export function registerApplyCommand(program: Command): void {
  withClusterFlags(
    program
      .command('apply')
      .description('server-side apply manifest files to the cluster of your kubeconfig (Secrets first), like `kubectl apply -f`')
      .argument('[files...]', 'manifest YAML files (InferenceServices and Secrets), or folders of them'),
  )
    .option('-f, --filename <file...>', 'manifest files or folders, as kubectl takes them (same as the arguments)')
    .option('--wait', 'then wait until every InferenceService is Ready')
    .option('--timeout <duration>', 'longest wait with --wait', '10m')
    .option('--dry-run [mode]', 'client: check here and send nothing; server: let the API server validate without storing anything')
    .option('--allow-inline-secrets', 'apply even when env[].value holds a credential in clear (a warning instead of an error)')
    .action(async (args: string[], flags: ApplyFlags) => {
      const mode = parseDryRun(flags.dryRun);
      const files = [...args, ...(flags.filename ?? [])];
      if (files.length === 0) {
        throw new InferkitError('invalid_request', 'apply: give manifest files or folders, as arguments or with -f FILE', { param: 'filename' });
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
      if (mode === 'client') {
        for (const d of docs) {
          process.stdout.write(`${resourceOf(d.kind)}/${d.metadata.name} valid (client dry run: nothing sent)\n`);
        }
        return;
      }
      const c = await clusterFromFlags(flags);
      const dryRun = mode === 'server';
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
