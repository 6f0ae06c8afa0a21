import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitForText } from '../fixtures/wait-for-text.js';
import { http } from './server-http.js';

const TSX = resolve(process.cwd(), 'node_modules/.bin/tsx');
const MAIN = resolve(process.cwd(), 'src/cli/main.ts');

let child: ChildProcess | undefined;
let tmp: string | undefined;
let blocker: Server | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
  }
  child = undefined;
  blocker?.close();
  blocker = undefined;
  if (tmp) {
    await rm(tmp, { recursive: true, force: true });
    tmp = undefined;
  }
});

/** Starts `inferkit serve ARGS…` and collects its output. */
function startServe(args: string[]): { proc: ChildProcess; output: { text: string }; exited: Promise<number | null> } {
  const proc = spawn(TSX, [MAIN, 'serve', 'examples/forecast.yaml', ...args], {
    env: { ...process.env, INFERKIT_API_KEY: '', INFERKIT_OFFLINE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  const output = { text: '' };
  proc.stdout?.on('data', (c: Buffer) => (output.text += c.toString('utf8')));
  proc.stderr?.on('data', (c: Buffer) => (output.text += c.toString('utf8')));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return { proc, output, exited };
}

const within = <T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> => Promise.race([p, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms))]);

describe('inferkit serve hardening (child process)', () => {
  it('--api-key-file: the key from the file is required (liveness open); SIGTERM with a stalled upload and an idle keep-alive exits 0 promptly', async () => {
    tmp = await mkdtemp(join(tmpdir(), 'inferkit-key-'));
    const keyFile = join(tmp, 'key');
    await writeFile(keyFile, 'k-from-file-42\n');
    const { proc, output, exited } = startServe(['--port', '0', '--api-key-file', keyFile, '--request-timeout', '60000', '--shutdown-timeout', '800']);
    const [, url] = await waitForText(proc, output, /serving on (http:\/\/127\.0\.0\.1:\d+)\s/, 30_000);
    await waitForText(proc, output, /models loaded:/, 30_000);
    expect((await http(url, '/v2/health/ready')).status).toBe(401);
    expect((await http(url, '/v2/health/ready', { headers: { authorization: 'Bearer k-from-file-42' } })).status).toBe(200);
    expect((await http(url, '/v2/health/live')).status).toBe(200);
    expect(output.text).not.toContain('k-from-file-42');

    const port = Number(new URL(url).port);
    const stalled = connect(port, '127.0.0.1');
    stalled.on('error', () => undefined);
    stalled.write('POST /v1/timeseries/forecast HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer k-from-file-42\r\nContent-Length: 100000\r\n\r\n{"model":');
    const idle = connect(port, '127.0.0.1');
    let idleText = '';
    idle.on('data', (c: Buffer) => (idleText += c.toString('utf8')));
    const idleEnd = new Promise<string>((r) => {
      idle.once('end', () => r('end'));
      idle.once('error', (e: NodeJS.ErrnoException) => r(e.code ?? 'error'));
    });
    idle.write('GET /v2/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await expect.poll(() => idleText).toMatch(/"live":true/);

    const started = Date.now();
    proc.kill('SIGTERM');
    expect(await within(exited, 10_000)).toBe(0);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(await idleEnd).toBe('end');
  }, 75_000);

  it('a missing --api-key-file is one clear line', async () => {
    const { exited, output } = startServe(['--port', '0', '--api-key-file', '/nonexistent/inferkit-key']);
    expect(await within(exited, 30_000)).toBe(1);
    expect(output.text).toMatch(/^inferkit: --api-key-file: cannot read "\/nonexistent\/inferkit-key"/m);
    expect(output.text).not.toMatch(/\n\s+at /);
  }, 40_000);

  it('a busy port is one clear line, no stack trace', async () => {
    blocker = createServer();
    await new Promise<void>((r) => blocker?.listen(0, '127.0.0.1', r));
    const address = blocker.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const { exited, output } = startServe(['--port', String(port)]);
    expect(await within(exited, 30_000)).toBe(1);
    expect(output.text).toMatch(new RegExp(`^inferkit: cannot listen on 127\\.0\\.0\\.1:${port}: the address is already in use`, 'm'));
    expect(output.text).not.toMatch(/\n\s+at /);
  }, 40_000);

  it('an invalid port is one clear line', async () => {
    const { exited, output } = startServe(['--port', '70000']);
    expect(await within(exited, 30_000)).toBe(1);
    expect(output.text).toMatch(/^inferkit: --port: expected an integer from 0 to 65535, got "70000"/m);
    expect(output.text).not.toMatch(/\n\s+at /);
  }, 40_000);
});
