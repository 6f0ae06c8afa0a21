import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { waitForText } from '../fixtures/wait-for-text.js';
import { http } from './server-http.js';
import { alive, leaf } from '../fixtures/processes.js';

// Issue 28 N2: every way a process manager stops `npx inferkit serve` stops the server. The server
// is started as `npx` starts a bin (npm exec → sh -c → node), from source through tsx's loader.
const SERVE = ['src/cli/main.ts', 'serve', 'examples/forecast.yaml', '--port', '0'];
const started: ChildProcess[] = [];
const pids: number[] = [];

afterEach(() => {
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const p of started.splice(0)) {
    if (p.exitCode === null && p.signalCode === null) {
      p.kill('SIGKILL');
    }
  }
});

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** Starts the server under `npx` (or plain node) and waits until it answers. */
async function start(viaNpx: boolean): Promise<{ proc: ChildProcess; server: number; url: string; output: { text: string } }> {
  const args = viaNpx ? ['exec', '--yes=false', '--', 'node', '--import', 'tsx', ...SERVE] : ['--import', 'tsx', ...SERVE];
  const proc = spawn(viaNpx ? 'npm' : process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, INFERKIT_OFFLINE: '1' } });
  started.push(proc);
  const output = { text: '' };
  proc.stdout?.on('data', (c: Buffer) => (output.text += c.toString('utf8')));
  proc.stderr?.on('data', (c: Buffer) => (output.text += c.toString('utf8')));
  const [, url] = await waitForText(proc, output, /serving on (http:\/\/127\.0\.0\.1:\d+)\s/, 60_000);
  const server = proc.pid === undefined ? 0 : leaf(proc.pid);
  pids.push(server);
  expect((await http(url, '/v2/health/live')).status).toBe(200);
  return { proc, server, url, output };
}

describe.skipIf(process.platform !== 'linux')('inferkit serve stops on every stop signal (issue 28 N2)', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('%s to npx stops the server and npx', async (signal) => {
    const { proc, server, url, output } = await start(true);
    expect(server).not.toBe(proc.pid);
    const npxExited = new Promise<void>((r) => proc.once('exit', () => r()));
    proc.kill(signal);
    expect(await until(() => !alive(server), 10_000), `server still running after ${signal} to npx:\n${output.text}`).toBe(true);
    await expect(http(url, '/v2/health/live')).rejects.toThrow(/ECONNREFUSED/);
    await npxExited;
    expect(output.text).toMatch(/stopping \((SIGTERM|signal to npm|npm exited)\)/);
  }, 90_000);

  it('keeps serving under npx after a stop and continue (Ctrl-Z, then fg)', async () => {
    const { server, url, output } = await start(true);
    process.kill(server, 'SIGSTOP');
    await new Promise((r) => setTimeout(r, 700));
    process.kill(server, 'SIGCONT');
    await new Promise((r) => setTimeout(r, 1500));
    expect(alive(server), output.text).toBe(true);
    expect((await http(url, '/v2/health/live')).status).toBe(200);
    expect(output.text).not.toContain('stopping');
  }, 90_000);

  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('%s to node exits 0 after the graceful close', async (signal) => {
    const { proc, output } = await start(false);
    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    proc.kill(signal);
    expect(await exited).toBe(0);
    expect(output.text).toContain(`stopping (${signal})`);
  }, 90_000);
});
