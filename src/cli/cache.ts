import type { Command } from 'commander';
import { CACHE_DIR_RULE, envCacheDir } from '../config.js';
import { formatAge } from '../manifest/format-age.js';
import { formatColumns } from '../manifest/status-row.js';
import { pruneModelCache, scanModelCache, type ModelCacheEntry } from '../model-cache/scan-model-cache.js';
import { formatSize } from '../runtime/shared-weights/process-memory.js';

interface CacheFlags {
  cache?: string;
  json?: boolean;
  dryRun?: boolean;
}

/**
 * Registers `inferkit cache [--cache DIR] [--json]` (what the model cache holds, each folder's size and whether
 * `prune` removes it) and `inferkit cache prune [--cache DIR] [--dry-run]`.
 */
export function registerCacheCommand(program: Command): void {
  const cacheOption = `the model cache (default: ${envCacheDir()}, from ${CACHE_DIR_RULE})`;
  const cache = program
    .command('cache')
    .description('list what the model cache holds (downloads, built graphs, the sessions\' copies) with sizes; `cache prune` removes what nothing can use')
    .option('--cache <dir>', cacheOption)
    .option('--json', 'print the list as JSON')
    .action(async (flags: CacheFlags) => {
      const report = await scanModelCache(flags.cache ?? envCacheDir());
      if (flags.json === true) {
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        return;
      }
      if (report.entries.length === 0) {
        process.stdout.write(`${report.dir}: nothing cached\n`);
        return;
      }
      process.stdout.write(table(report.entries));
      const removable = report.entries.filter((e) => e.removable !== undefined);
      const freed = removable.reduce((sum, e) => sum + e.bytes, 0);
      process.stdout.write(`${folders(report.entries.length)}, ${formatSize(report.bytes)} in ${report.dir}`);
      process.stdout.write(removable.length > 0 ? `; ${removable.length} removable (${formatSize(freed)}): inferkit cache prune\n` : '\n');
    });
  cache
    .command('prune')
    .description('remove the graphs and copies whose source is gone and the writes abandoned unfinished (never downloads)')
    .option('--cache <dir>', cacheOption)
    .option('--dry-run', 'say what would be removed, remove nothing')
    .action(async (flags: CacheFlags) => {
      // The parent's --cache when given before `prune` (`inferkit cache --cache D prune`).
      const dir = flags.cache ?? (cache.opts() as CacheFlags).cache ?? envCacheDir();
      const removed = await pruneModelCache(dir, { dryRun: flags.dryRun === true });
      const verb = flags.dryRun === true ? 'would remove' : 'removed';
      for (const e of removed) {
        process.stdout.write(`${verb} ${e.path} (${e.kind === 'copy' ? e.name : `${e.kind} ${e.name}`}, ${formatSize(e.bytes)}, ${e.removable})\n`);
      }
      process.stdout.write(`${verb} ${folders(removed.length)}, ${formatSize(removed.reduce((sum, e) => sum + e.bytes, 0))} from ${dir}\n`);
    });
}

const folders = (n: number): string => `${n} folder${n === 1 ? '' : 's'}`;

/** KIND, SIZE, AGE, NAME, SOURCE columns, as kubectl lays them out; the source marked when it is gone. */
function table(entries: readonly ModelCacheEntry[]): string {
  const now = Date.now();
  return formatColumns([
    ['KIND', 'SIZE', 'AGE', 'NAME', 'SOURCE'],
    ...entries.map((e) => [
      e.kind,
      formatSize(e.bytes),
      formatAge(now - e.modified.getTime()),
      e.name,
      e.removable === 'source gone' ? `${e.source ?? ''} (gone)` : e.removable === 'abandoned' ? '(abandoned)' : (e.source ?? ''),
    ]),
  ]);
}
