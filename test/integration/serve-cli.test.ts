import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitForText } from '../fixtures/wait-for-text.js';
import { http } from './server-http.js';

const TSX = resolve(process.cwd(), 'node_modules/.bin/tsx');
const MAIN = resolve(process.cwd(), 'src/cli/main.ts');

let child: ChildProcess | undefined;
let cache: string | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
  }
  child = undefined;
  if (cache) {
    await rm(cache, { recursive: true, force: true });
  }
});

describe('inferkit serve (child process)', () => {
  it('serves the two examples on a free port, answers V1 and forecast by Host, and exits 0 on SIGINT', async () => {
    cache = await mkdtemp(join(tmpdir(), 'inferkit-serve-cli-'));
    const proc = spawn(TSX, [MAIN, 'serve', 'examples/token-classification.yaml', 'examples/forecast.yaml', '--port', '0'], {
      env: { ...process.env, INFERKIT_CACHE: cache, INFERKIT_OFFLINE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    const output = { text: '' };
    proc.stdout?.on('data', (c: Buffer) => (output.text += c.toString('utf8')));
    proc.stderr?.on('data', (c: Buffer) => (output.text += c.toString('utf8')));

    const [, url] = await waitForText(proc, output, /serving on (http:\/\/127\.0\.0\.1:\d+)\s/, 30_000);
    await waitForText(proc, output, /models loaded:/, 30_000);
    expect(output.text).not.toMatch(/FAILED/);
    // The process's memory once the models are up (RSS, and PSS where Linux tells it).
    await waitForText(proc, output, /memory: RSS \d+\.\d\d GiB(, PSS \d+\.\d\d GiB)? for 2 models/, 5_000);
    expect(output.text).toContain('weights one copy per float model (one session, or replicas sharing one mapped copy)');
    const failure = (what: string) => `${what}; serve output:\n${output.text}`;

    const v1 = await http(url, '/v1/models/bert:predict', {
      headers: { host: 'huggingface-bert.default.example.com' },
      body: { instances: ['My name is Wolfgang and I live in Berlin'] },
    });
    expect(v1.status, failure(v1.text)).toBe(200);
    expect(v1.json()).toEqual({ predictions: [[expect.any(Array)]] });

    const fc = await http(url, '/v1/timeseries/forecast', {
      headers: { host: 'chronos-forecast.forecasting.example.com' },
      body: { model: 'chronos-bolt', inputs: [{ type: 'univariate_time_series', name: 's', series: [1, 2, 3, 1, 2, 3, 1, 2, 3], frequency: 'D' }], options: { horizon: 3 } },
    });
    expect(fc.status, failure(fc.text)).toBe(200);
    const body = fc.json() as { status: string; outputs: Array<{ content: Array<{ mean_forecast: number[] }> }> };
    expect(body.status).toBe('completed');
    expect(body.outputs[0].content[0].mean_forecast).toHaveLength(3);

    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    proc.kill('SIGINT');
    const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000))]);
    expect(code, failure('exit after SIGINT')).toBe(0);
  }, 75_000);

  it('--api-key and --allowed-host reach the server: no key is a 401, the key passes, liveness stays open, a foreign Host is refused unless allowed', async () => {
    const proc = spawn(TSX, [MAIN, 'serve', 'examples/forecast.yaml', '--port', '0', '--api-key', 'k-test-123', '--allowed-host', 'models.lan', '--max-json-depth', '8', '--prepack'], {
      env: { ...process.env, INFERKIT_API_KEY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    const output = { text: '' };
    proc.stderr?.on('data', (c: Buffer) => (output.text += c.toString('utf8')));
    const [, url] = await waitForText(proc, output, /serving on (http:\/\/127\.0\.0\.1:\d+)\s/, 30_000);
    await waitForText(proc, output, /models loaded:/, 30_000);
    expect(output.text).toContain('weights prepacked by every session (--prepack)');
    const host = 'chronos-forecast.forecasting.example.com';
    const body = { model: 'chronos-bolt', inputs: [{ type: 'univariate_time_series', name: 's', series: [1, 2, 3, 1, 2, 3], frequency: 'D' }], options: { horizon: 2 } };
    const key = { authorization: 'Bearer k-test-123' };

    expect((await http(url, '/v1/timeseries/forecast', { headers: { host }, body })).status).toBe(401);
    expect((await http(url, '/v1/timeseries/forecast', { headers: { host, ...key }, body })).status).toBe(200);
    expect((await http(url, '/v2/health/live', { headers: { host } })).status).toBe(200);
    expect((await http(url, '/v2/health/ready', { headers: { host: 'evil.example.net', ...key } })).status).toBe(400);
    expect((await http(url, '/inferkit/v1/services', { headers: { host: 'models.lan', ...key } })).status).toBe(200);
    const deep = { ...body, metadata: JSON.parse('{"a":'.repeat(20) + '1' + '}'.repeat(20)) as unknown };
    expect((await http(url, '/v1/timeseries/forecast', { headers: { host, ...key }, body: deep })).status).toBe(400);
  }, 75_000);
});
