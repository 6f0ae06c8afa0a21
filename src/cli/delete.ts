import type { Command } from 'commander';
import { InferkitError } from '../errors.js';
import type { ManifestDocument } from '../manifest/manifest-yaml.js';
import { clusterFromFlags, withClusterFlags, type ClusterFlags } from './cluster-options.js';
import { isvcName, parseDryRun, resourceOf } from './kubectl-args.js';
import { manifestFiles, readManifestFile } from './manifest-files.js';

interface DeleteFlags extends ClusterFlags {
  filename?: string[];
  dryRun?: string | boolean;
}

/** Registers `inferkit delete NAME | inferenceservice/NAME | isvc NAME | -f FILE` with `--dry-run=client|server`. */
export function registerDeleteCommand(program: Command): void {
  withClusterFlags(
    program
      .command('delete')
      .description('delete an InferenceService by name, or every object of manifest files (-f)')
      .argument('[name...]', 'InferenceService: NAME, inferenceservice/NAME or isvc NAME'),
  )
    .option('-f, --filename <file...>', 'manifest files (or folders of them) whose objects to delete')
    .option('--dry-run [mode]', 'client: say what would be deleted and send nothing; server: let the API server check without deleting')
    .action(async (args: string[], flags: DeleteFlags) => {
      const name = isvcName(args, 'delete');
      if ((name === undefined) === (flags.filename === undefined)) {
        throw new InferkitError('invalid_request', 'delete: give either a NAME (inferenceservice/NAME) or -f FILE', { param: 'name' });
      }
      const mode = parseDryRun(flags.dryRun);
      const { fromYaml } = await import('../manifest/manifest-yaml.js');
      const docs: ManifestDocument[] = [];
      if (name === undefined) {
        for (const file of await manifestFiles(flags.filename ?? [])) {
          docs.push(...fromYaml(await readManifestFile(file)));
        }
      }
      if (mode === 'client') {
        for (const line of name !== undefined ? [`${resourceOf('InferenceService')}/${name}`] : docs.map((d) => `${resourceOf(d.kind)}/${d.metadata.name}`)) {
          process.stdout.write(`${line} deleted (client dry run: nothing sent)\n`);
        }
        return;
      }
      const c = await clusterFromFlags(flags);
      const dryRun = mode === 'server';
      for (const line of await c.delete(name ?? docs, { dryRun })) {
        process.stdout.write(`${line} deleted${dryRun ? ' (server dry run)' : ''}\n`);
      }
    });
}
