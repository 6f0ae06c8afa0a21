import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { getPriority, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { leaf, threadNice } from '../fixtures/processes.js';
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
  it.runIf(process.platform === 'linux')('lowers only the event loop thread\'s priority once the models have loaded (nice +10 by default): the sessions\' threads keep theirs, and the model answers', async () => {
    const { proc, output } = start(['examples/token-classification.yaml']);
    const [, url] = await waitForText(proc, output, /serving on (http:\/\/127\.0\.0\.1:\d+)\s/, 30_000);
    await waitForText(proc, output, /models loaded:\n.*READY.*\n/, 30_000);
    expect(output.text).toContain('event loop at nice +10 once loaded (--event-loop-nice');
    // tsx runs node as its child: the server is the end of that chain.
    const pid = leaf(proc.pid as number);
    const base = getPriority();
    const nice = threadNice(pid);
    // The main thread's id is the process id.
    expect(nice.get(pid)).toBe(Math.min(19, base + 10));
    // The session's worker thread and its ONNX Runtime threads started before: at the old priority.
    expect([...nice].filter(([tid, n]) => tid !== pid && n === base).length).toBeGreaterThanOrEqual(2);
    const v1 = await http(url, '/v1/models/bert:predict', { headers: { host: 'huggingface-bert.default.example.com' }, body: { instances: ['I live in Berlin'] } });
    expect(v1.status, v1.text).toBe(200);
  }, 75_000);

  it('--threads sets the shared budget, the manifest\'s cpu limit caps its model, and both show at startup and in /inferkit/v1/services', async () => {
    const { proc, output } = start(['examples/token-classification.yaml', '--threads', '3']);
    const [, url] = await waitForText(proc, output, /serving on (http:\/\/127\.0\.0\.1:\d+)\s/, 30_000);
    await waitForText(proc, output, /models loaded:\n.*READY.*\n/, 30_000);
    expect(output.text).toMatch(/inference: 3 threads \(--threads\) shared by the ONNX models and the worker baselines \(Theta, AutoETS, MSTL\); sessions in worker threads; ORT spinning off/);
    // examples/token-classification.yaml limits its predictor to cpu: "1".
    expect(output.text).toMatch(/model=bert .* READY {2}threads=1 \(cpu limit 1\)/);
    const services = (await http(url, '/inferkit/v1/services')).json() as { services: Array<{ inference: unknown }> };
    expect(services.services[0].inference).toEqual({ threads: 1, worker: true, spinning: false, cpuLimit: 1, onnxVariant: 'default', replicaThreads: [1] });
    const v1 = await http(url, '/v1/models/bert:predict', { headers: { host: 'huggingface-bert.default.example.com' }, body: { instances: ['I live in Berlin'] } });
    expect(v1.status, v1.text).toBe(200);
  }, 75_000);

  it('--replicas shares a float model\'s threads among session replicas (default: one session with all of them), plus a latency session; the answers stay the same', async () => {
    // The example without its cpu limit, so the model gets all of --threads.
    const dir = await mkdtemp(join(tmpdir(), 'inferkit-replicas-'));
    try {
      const doc = parse(await readFile('examples/token-classification.yaml', 'utf8')) as { spec: { predictor: { model: { resources?: unknown } } } };
      delete doc.spec.predictor.model.resources;
      const file = join(dir, 'ner.yaml');
      await writeFile(file, stringify(doc));
      const answers: unknown[] = [];
      for (const [extra, shown, split] of [
        [[], /threads=3\n/, [3]],
        [['--replicas', '3'], /threads=3 \(3 replicas: 1\+1\+1, latency session: 3\)\n/, [1, 1, 1]],
        [['--replicas', '2', '--no-latency-session'], /threads=3 \(2 replicas: 2\+1\)\n/, [2, 1]],
      ] as const) {
        const { proc, output } = start([file, '--threads', '3', ...extra]);
        const [, url] = await waitForText(proc, output, /serving on (http:\/\/127\.0\.0\.1:\d+)\s/, 30_000);
        await waitForText(proc, output, /models loaded:\n.*READY.*\n/, 30_000);
        expect(output.text).toMatch(shown);
        const services = (await http(url, '/inferkit/v1/services')).json() as { services: Array<{ inference: { replicaThreads?: number[] } }> };
        expect(services.services[0].inference.replicaThreads).toEqual(split);
        const texts = ['My name is Wolfgang and I live in Berlin', 'Angela Merkel met Emmanuel Macron in Paris', 'hi'];
        const v1 = await Promise.all(texts.map((t) => http(url, '/v1/models/bert:predict', { headers: { host: 'huggingface-bert.default.example.com' }, body: { instances: [t] } })));
        expect(v1.map((r) => r.status)).toEqual([200, 200, 200]);
        answers.push(v1.map((r) => r.json()));
        proc.kill('SIGINT');
        await new Promise((r) => proc.once('exit', r));
      }
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('--quantized asks every token-classification model for onnx/model_quantized.onnx (the built-in fixture has none: the load fails naming it)', async () => {
    const { proc, output } = start(['examples/token-classification.yaml', '--quantized']);
    await waitForText(proc, output, /models loaded:\n.*FAILED: .*onnx\/model_quantized\.onnx/, 30_000);
  }, 75_000);

  it('--threads 0 and --replicas two are refused naming the flag', async () => {
    const err = await promisify(execFile)(TSX, [MAIN, 'serve', 'examples/token-classification.yaml', '--threads', '0']).catch((e: { code?: number; stderr?: string }) => e);
    expect(err).toMatchObject({ code: 1 });
    expect((err as { stderr: string }).stderr).toContain('--threads: expected an integer ≥ 1, got "0"');
    const bad = await promisify(execFile)(TSX, [MAIN, 'serve', 'examples/token-classification.yaml', '--replicas', 'two']).catch((e: { code?: number; stderr?: string }) => e);
    expect((bad as { stderr: string }).stderr).toContain('--replicas: expected an integer ≥ 1, got "two"');
    const nice = await promisify(execFile)(TSX, [MAIN, 'serve', 'examples/token-classification.yaml', '--event-loop-nice', '20']).catch((e: { code?: number; stderr?: string }) => e);
    expect((nice as { stderr: string }).stderr).toContain('--event-loop-nice: expected an integer from 0 to 19, got "20"');
  }, 30_000);
});
