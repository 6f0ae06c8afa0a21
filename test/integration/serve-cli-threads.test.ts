import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { waitForText } from '../fixtures/wait-for-text.js';
import { http } from './server-http.js';

const TSX = resolve(process.cwd(), 'node_modules/.bin/tsx');
const MAIN = resolve(process.cwd(), 'src/cli/main.ts');

let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
  }
  child = undefined;
});

function start(args: string[]): { proc: ChildProcess; output: { text: string } } {
  const proc = spawn(TSX, [MAIN, 'serve', ...args, '--port', '0'], { env: { ...process.env, INFERKIT_OFFLINE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  child = proc;
  const output = { text: '' };
  proc.stderr?.on('data', (c: Buffer) => (output.text += c.toString('utf8')));
  return { proc, output };
}

describe('inferkit serve --threads / --quantized (child process)', () => {
  it('--threads sets the shared budget, the manifest\'s cpu limit caps its model, and both show at startup and in /inferkit/v1/services', async () => {
    const { proc, output } = start(['examples/token-classification.yaml', '--threads', '3']);
    const [, url] = await waitForText(proc, output, /serving on (http:\/\/127\.0\.0\.1:\d+)\s/, 30_000);
    await waitForText(proc, output, /models loaded:\n.*READY.*\n/, 30_000);
    expect(output.text).toMatch(/inference: 3 threads \(--threads\) shared by the ONNX models and the worker baselines \(Theta, AutoETS, MSTL\); sessions in worker threads; ORT spinning off/);
    // examples/token-classification.yaml limits its predictor to cpu: "1".
    expect(output.text).toMatch(/model=bert .* READY {2}threads=1 \(cpu limit 1\)/);
    const services = (await http(url, '/inferkit/v1/services')).json() as { services: Array<{ inference: unknown }> };
    expect(services.services[0].inference).toEqual({ threads: 1, worker: true, spinning: false, cpuLimit: 1, onnxVariant: 'default' });
    const v1 = await http(url, '/v1/models/bert:predict', { headers: { host: 'huggingface-bert.default.example.com' }, body: { instances: ['I live in Berlin'] } });
    expect(v1.status, v1.text).toBe(200);
  }, 75_000);

  it('--quantized asks every token-classification model for onnx/model_quantized.onnx (the built-in fixture has none: the load fails naming it)', async () => {
    const { proc, output } = start(['examples/token-classification.yaml', '--quantized']);
    await waitForText(proc, output, /models loaded:\n.*FAILED: .*onnx\/model_quantized\.onnx/, 30_000);
  }, 75_000);

  it('--threads 0 is refused naming the flag', async () => {
    const err = await promisify(execFile)(TSX, [MAIN, 'serve', 'examples/token-classification.yaml', '--threads', '0']).catch((e: { code?: number; stderr?: string }) => e);
    expect(err).toMatchObject({ code: 1 });
    expect((err as { stderr: string }).stderr).toContain('--threads: expected an integer ≥ 1, got "0"');
  }, 30_000);
});
