import type { Command } from 'commander';
import type { WaitProgressEvent } from '../cluster/cluster-types.js';
import { InferkitError } from '../errors.js';
import { clusterFromFlags, parseDuration, withClusterFlags, type ClusterFlags } from './cluster-options.js';

/** One stderr line per progress event: `huggingface-bert: PredictorReady=Unknown (RevisionMissing), Ready=…`. */
export function progressLine(e: WaitProgressEvent): string {
  return `${e.name}: ${e.changed.length > 0 ? e.changed.join(', ') : 'no conditions yet'}\n`;
}

interface WaitFlags extends ClusterFlags {
  for: string;
  timeout: string;
}

/** Registers `inferkit wait NAME [--for=Ready] [--timeout 10m]`. */
export function registerWaitCommand(program: Command): void {
  withClusterFlags(
    program
      .command('wait')
      .description('watch an InferenceService until it is Ready; exits non-zero with the reason when its revision fails')
      .argument('<name>', 'InferenceService name'),
  )
    .option('--for <condition>', 'condition to wait for (only Ready)', 'Ready')
    .option('--timeout <duration>', 'longest wait', '10m')
    .action(async (name: string, flags: WaitFlags) => {
      const wanted = flags.for.replace(/^condition=/i, '');
      if (wanted.toLowerCase() !== 'ready') {
        throw new InferkitError('invalid_request', `--for: only Ready (or condition=Ready) is supported, got "${flags.for}"`, { param: 'for' });
      }
      const timeoutMs = parseDuration(flags.timeout);
      const c = await clusterFromFlags(flags);
      const isvc = await c.waitReady(name, { timeoutMs, onProgress: (e) => process.stderr.write(progressLine(e)) });
      process.stdout.write(`inferenceservice.serving.kserve.io/${name} condition met${isvc.status?.url ? ` (${isvc.status.url})` : ''}\n`);
    });
}
