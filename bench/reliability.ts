/**
 * Reliability bench (issue 28): `inferkit serve` (the shipped token-classification example, a
 * separate process) under the attacks of the outside re-test, with a normal client and a liveness
 * probe alongside, then a keep-alive soak, a SIGTERM under pooled keep-alive load and the stop
 * signals through `npx`. Prints markdown tables: served %, p99, the server's peak RSS, load average.
 * Run: `npx tsx bench/reliability.ts [--quick] [--seconds N] [--soak-seconds N]`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawn } from 'node:child_process';
import { alive, keepAliveLoad, loop, once, rssOf, startServer, type Outcome } from './lib/attack-load.js';
import { machineInfo, machineLine } from './lib/machine.js';
import { formatNumber, percentile } from './lib/stats.js';
import { renderTable } from './lib/table.js';

const MANIFEST = 'examples/token-classification.yaml';
const PREDICT = '/v1/models/bert:predict';
const BODY = JSON.stringify({ instances: ['My name is Wolfgang and I live in Berlin'] });

interface Options {
  seconds: number;
  soakSeconds: number;
}

function parseArgs(argv: readonly string[]): Options {
  const quick = argv.includes('--quick');
  const num = (flag: string, fallback: number): number => {
    const i = argv.indexOf(flag);
    return i >= 0 ? Number(argv[i + 1]) : fallback;
  };
  return { seconds: num('--seconds', quick ? 4 : 15), soakSeconds: num('--soak-seconds', quick ? 8 : 60) };
}

const served = (o: readonly Outcome[]) => (o.length === 0 ? '—' : `${formatNumber((100 * o.filter((x) => x.status === 200).length) / o.length)}% of ${o.length}`);
const p99 = (o: readonly Outcome[]) => formatNumber(percentile(o.filter((x) => x.status === 200).map((x) => x.ms), 99));
const mib = (bytes: number) => (Number.isFinite(bytes) ? formatNumber(bytes / 2 ** 20) : '—');

/** An attack (attack-process.ts) in its own process; `stop()` resolves with the connections it made. */
function startAttack(port: number, count: number, mode: 'reconnect' | 'held' | 'drip'): { stop: () => Promise<string> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/attack-process.ts', String(port), String(count), mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  return {
    stop: () =>
      new Promise((resolve) => {
        proc.once('exit', () => resolve(out.trim() || '?'));
        proc.kill('SIGTERM');
      }),
  };
}

/** Why requests failed: `CODE×n` for each error or status other than 200. */
function failures(o: readonly Outcome[]): string {
  const counts = new Map<string, number>();
  for (const x of o) {
    if (x.status !== 200) {
      const k = x.error ?? String(x.status);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  }
  return [...counts].map(([k, n]) => `${k}×${n}`).join(', ') || 'none';
}

/** Runs the normal client (fresh connection per request) and a probe every 250 ms for `seconds` while an attack runs. */
async function underAttack(port: number, pid: number, seconds: number, start: () => { stop: () => Promise<string> } | undefined): Promise<string[]> {
  const a = start();
  await new Promise((r) => setTimeout(r, 1500));
  const stop = new AbortController();
  let peak = rssOf(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 250);
  const timer = setTimeout(() => stop.abort(), seconds * 1000);
  const [client, probes] = await Promise.all([loop(stop.signal, () => once(port, PREDICT, BODY, 2000)), loop(stop.signal, () => once(port, '/v2/health/live', undefined, 1000), 250)]);
  clearTimeout(timer);
  clearInterval(sampler);
  const opened = a ? await a.stop() : '0';
  await new Promise((r) => setTimeout(r, 2500));
  return [served(client), p99(client), failures(client), served(probes), p99(probes), failures(probes), mib(peak), formatNumber(loadavg()[0]), opened];
}

async function attacks(o: Options, env: Record<string, string>): Promise<string[][]> {
  const server = await startServer([MANIFEST, '--port', '0'], env);
  const rows: string[][] = [];
  try {
    const cases: Array<[string, string, () => { stop: () => Promise<string> } | undefined]> = [
      ['baseline', 'none', () => undefined],
      ['idle flood, reconnecting', '1,100 sockets that send nothing and reconnect when closed', () => startAttack(server.port, 1100, 'reconnect')],
      ['idle sockets, held', '2,000 sockets that send nothing (not reopened)', () => startAttack(server.port, 2000, 'held')],
      ['slowloris', '1,100 sockets, one header byte a second, reconnecting', () => startAttack(server.port, 1100, 'drip')],
    ];
    for (const [name, what, start] of cases) {
      rows.push([name, what, ...(await underAttack(server.port, server.pid, o.seconds, start))]);
      process.stderr.write(`${rows.at(-1)?.join(' | ') ?? ''}\n`);
    }
    const stop = new AbortController();
    const rssStart = rssOf(server.pid);
    let peak = rssStart;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server.pid))), 500);
    setTimeout(() => stop.abort(), o.soakSeconds * 1000);
    const [soak, client] = await Promise.all([keepAliveLoad(server.port, PREDICT, BODY, 16, stop.signal), loop(stop.signal, () => once(server.port, PREDICT, BODY, 2000))]);
    clearInterval(sampler);
    rows.push([`soak ${o.soakSeconds} s`, `16 keep-alive clients back to back: ${served(soak)}, p99 ${p99(soak)} ms; RSS ${mib(rssStart)} → ${mib(rssOf(server.pid))} MiB`, served(client), p99(client), failures(client), '—', '—', '—', mib(peak), formatNumber(loadavg()[0]), '0']);
  } finally {
    server.proc.kill('SIGKILL');
  }
  return rows;
}

/** SIGTERM while 16 pooled keep-alive clients send: how each request ended. */
async function shutdownUnderLoad(env: Record<string, string>): Promise<string[]> {
  const server = await startServer([MANIFEST, '--port', '0'], env);
  const stop = new AbortController();
  const load = keepAliveLoad(server.port, PREDICT, BODY, 16, stop.signal);
  await new Promise((r) => setTimeout(r, 2000));
  const started = performance.now();
  server.proc.kill('SIGTERM');
  while (alive(server.pid) && performance.now() - started < 20_000) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const exitMs = performance.now() - started;
  await new Promise((r) => setTimeout(r, 200));
  stop.abort();
  const outcomes = await load;
  const count = (f: (x: Outcome) => boolean) => String(outcomes.filter(f).length);
  return ['SIGTERM under c=16 keep-alive', formatNumber(exitMs / 1000), count((x) => x.error === 'ECONNRESET' || x.error === 'socket hang up'), count((x) => x.status === 503), count((x) => x.error === 'ECONNREFUSED'), count((x) => x.status === 200)];
}

/** Each stop signal to `npx inferkit serve`: whether and how fast the server process went away. */
async function signals(env: Record<string, string>): Promise<string[][]> {
  const rows: string[][] = [];
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const server = await startServer([MANIFEST, '--port', '0'], env, true);
    const started = performance.now();
    server.proc.kill(signal);
    while (alive(server.pid) && performance.now() - started < 15_000) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const gone = !alive(server.pid);
    rows.push([`${signal} to npx`, gone ? formatNumber((performance.now() - started) / 1000) : 'still serving after 15 s', '—', '—', '—', '—']);
    if (!gone) {
      process.kill(server.pid, 'SIGKILL');
    }
    server.proc.kill('SIGKILL');
  }
  return rows;
}

/** Runs every scenario and returns the report. */
export async function runReliabilityBench(o: Options): Promise<string> {
  const cache = await mkdtemp(join(tmpdir(), 'inferkit-reliability-'));
  const env = { INFERKIT_CACHE: cache, INFERKIT_OFFLINE: '1' };
  const machine = machineInfo();
  try {
    const attackRows = await attacks(o, env);
    const stopRows = [await shutdownUnderLoad(env)];
    process.stderr.write(`${stopRows.at(-1)?.join(' | ') ?? ''}\n`);
    stopRows.push(...(await signals(env)));
    return [
      `Run ${new Date().toISOString().slice(0, 16)}Z on ${machineLine(machine)}.`,
      '',
      renderTable({
        title: `Attacks (${o.seconds} s each) with a normal client and a liveness probe alongside`,
        headers: ['scenario', 'attack', 'client served', 'client p99 ms', 'client failures', 'probes served', 'probe p99 ms', 'probe failures', 'server RSS peak MiB', 'load avg', 'attack connections'],
        rows: attackRows,
        notes: [
          'client: one V1 predict per new connection, back to back, 2 s timeout; probe: GET /v2/health/live every 250 ms, 1 s timeout (the kubelet default); the attack runs in its own process (bench/lib/attack-process.ts)',
          'server: `inferkit serve examples/token-classification.yaml` in its own process, default limits (1,024 connections, 256 per peer, 2 s first-byte timeout, 64 probe headroom); attack and clients share the loopback address',
        ],
      }),
      '',
      renderTable({
        title: 'Stops',
        headers: ['scenario', 'exit after s', 'ECONNRESET', '503', 'refused (listener closed)', '200'],
        rows: stopRows,
      }),
    ].join('\n');
  } finally {
    await rm(cache, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(await runReliabilityBench(parseArgs(process.argv.slice(2))));
}
