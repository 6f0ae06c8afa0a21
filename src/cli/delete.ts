import type { Command } from 'commander';
import { InferkitError } from '../errors.js';
import type { ManifestDocument } from '../manifest/manifest-yaml.js';
import { clusterFromFlags, withClusterFlags, type ClusterFlags } from './cluster-options.js';
import { manifestFiles, readManifestFile } from './manifest-files.js';

interface DeleteFlags extends ClusterFlags {
  filename?: string[];
  dryRun?: string;
}

/** Registers `inferkit delete NAME | -f FILE`. */
export function registerDeleteCommand(program: Command): void {
  withClusterFlags(
    program
      .command('delete')
      .description('delete an InferenceService by name, or every object of manifest files (-f)')
      .argument('[name]', 'InferenceService name'),
  )
    .option('-f, --filename <file...>', 'manifest files (or folders of them) whose objects to delete')
    .option('--dry-run <mode>', 'server: let the API server check without deleting')
    .action(async (name: string | undefined, flags: DeleteFlags) => {
      if ((name === undefined) === (flags.filename === undefined)) {
        throw new InferkitError('invalid_request', 'delete: give either a NAME or -f FILE', { param: 'name' });
      }
      if (flags.dryRun !== undefined && flags.dryRun !== 'server') {
        throw new InferkitError('invalid_request', `--dry-run: only "server" is supported, got "${flags.dryRun}"`, { param: 'dry-run' });
      }
      const { fromYaml } = await import('../manifest/manifest-yaml.js');
      const c = await clusterFromFlags(flags);
      const dryRun = flags.dryRun === 'server';
      const docs: ManifestDocument[] = [];
      if (name === undefined) {
        for (const file of await manifestFiles(flags.filename ?? [])) {
          docs.push(...fromYaml(await readManifestFile(file)));
        }
      }
      for (const line of await c.delete(name ?? docs, { dryRun })) {
        process.stdout.write(`${line} deleted${dryRun ? ' (server dry run)' : ''}\n`);
      }
    });
}
