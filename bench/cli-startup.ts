/**
 * Start-up CPU of the `inferkit` command (issue 26 item 6: `--version` and `validate` in ≤ 0.25 s CPU):
 * whole-process user + system seconds of each command line, the child's own accounting (bash's `time`,
 * which reads getrusage of the reaped child), so node's bootstrap and exit are counted. Contenders run
 * interleaved round by round (floor, before, after, …) so that load drift hits them alike:
 * - `node -e 0`: the floor, node itself on this machine at this load;
 * - before: `node dist/cli/main.js …`, tsc's output, what bin/inferkit.js ran until the bundle;
 * - after: `node bin/inferkit.js …`, today's command (a bare `--version` answered in bin/, `validate` from
 *   the bundle dist/cli/inferkit-validate.cjs with its code cache, written by scripts/bundle-cli.ts).
 * Needs `npm run build`. Alone: `npx tsx bench/cli-startup.ts [--quick] [--rounds N]`.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, minMax } from './lib/stats.js';
import type { Table } from './lib/table.js';

const ROOT = resolve(import.meta.dirname, '..');
const MANIFEST = 'examples/forecast.yaml';

interface Contender {
  label: string;
  args: string[];
}

const CONTENDERS: Contender[] = [
  { label: 'node -e 0 (floor)', args: ['-e', '0'] },
  { label: '--version, before (dist/cli/main.js)', args: ['dist/cli/main.js', '--version'] },
  { label: '--version, after (bin/inferkit.js)', args: ['bin/inferkit.js', '--version'] },
  { label: `validate ${MANIFEST}, before (dist/cli/main.js)`, args: ['dist/cli/main.js', 'validate', MANIFEST] },
  { label: `validate ${MANIFEST}, after (bin/inferkit.js)`, args: ['bin/inferkit.js', 'validate', MANIFEST] },
];

/** One command line's user + system CPU seconds and wall seconds, measured by bash's `time` around it. */
function timeOnce(cwd: string, args: readonly string[]): { cpu: number; wall: number } {
  const script = 'TIMEFORMAT="%3R %3U %3S"; time "$@" >/dev/null';
  const r = spawnSync('bash', ['-c', script, 'bash', process.execPath, ...args], { cwd, encoding: 'utf8' });
  const m = /(\d+\.\d+) (\d+\.\d+) (\d+\.\d+)\s*$/.exec(r.stderr);
  if (r.status !== 0 || m === null) {
    throw new Error(`${args.join(' ')} failed (exit ${String(r.status)}): ${r.stderr.trim().split('\n').slice(-3).join(' / ')}`);
  }
  return { wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]) };
}

/** Median (min–max) CPU and wall seconds of every contender, and the after/before ratios. */
export async function runCliStartupBench(options: { quick?: boolean; rounds?: number } = {}): Promise<Table> {
  for (const file of ['dist/cli/main.js', 'dist/cli/inferkit-validate.cjs']) {
    if (!existsSync(join(ROOT, file))) {
      throw new Error(`${file} is missing: run npm run build first`);
    }
  }
  // A copy of the package (dist/, bin/, package.json, the manifest; node_modules linked): a build or `npm pack`
  // elsewhere in the checkout (prepack empties dist/) cannot pull files from under the runs.
  const pkg = mkdtempSync(join(tmpdir(), 'inferkit-cli-startup-'));
  const rounds = options.rounds ?? (options.quick ? 5 : 15);
  const runs = CONTENDERS.map(() => ({ cpu: [] as number[], wall: [] as number[] }));
  try {
    cpSync(join(ROOT, 'dist'), join(pkg, 'dist'), { recursive: true, preserveTimestamps: true });
    mkdirSync(join(pkg, 'examples'));
    mkdirSync(join(pkg, 'bin'));
    for (const file of ['package.json', 'bin/inferkit.js', MANIFEST]) {
      cpSync(join(ROOT, file), join(pkg, file), { preserveTimestamps: true });
    }
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
    CONTENDERS.forEach((c) => timeOnce(pkg, c.args)); // warm the file cache
    for (let round = 0; round < rounds; round++) {
      CONTENDERS.forEach((c, i) => {
        const t = timeOnce(pkg, c.args);
        runs[i].cpu.push(t.cpu);
        runs[i].wall.push(t.wall);
      });
    }
  } finally {
    rmSync(pkg, { recursive: true, force: true });
  }
  const spread = (v: number[]) => {
    const { min, max } = minMax(v);
    return `${median(v).toFixed(3)} (${min.toFixed(3)}–${max.toFixed(3)})`;
  };
  const cpuOf = (i: number) => median(runs[i].cpu);
  return {
    title: `CLI start-up, whole-process CPU (user + system) over ${rounds} interleaved rounds (target ≤ 0.25 s)`,
    headers: ['command line', 'CPU s, median (min–max)', 'wall s, median', 'CPU − floor s'],
    rows: CONTENDERS.map((c, i) => [c.label, spread(runs[i].cpu), median(runs[i].wall).toFixed(3), (cpuOf(i) - cpuOf(0)).toFixed(3)]),
    notes: [
      `after / before CPU: --version ${(cpuOf(2) / cpuOf(1)).toFixed(2)}×, validate ${(cpuOf(4) / cpuOf(3)).toFixed(2)}×`,
      'CPU is the machine\'s accounting of the finished child (bash `time`); wall follows the load and is shown only for scale.',
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const roundsAt = process.argv.indexOf('--rounds');
  const table = await runCliStartupBench({ quick: process.argv.includes('--quick'), rounds: roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : undefined });
  const { renderTable } = await import('./lib/table.js');
  process.stdout.write(`${renderTable(table)}\n`);
}
