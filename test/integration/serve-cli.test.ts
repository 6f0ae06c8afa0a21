import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { ModelMemory } from '../../src/runtime/model-memory/model-memory.js';
import { loadExchanges } from '../conformance/exchanges.js';
import { expectReplayed } from '../conformance/kserve-compare.js';
import { sendExchange } from '../conformance/kserve-replay.js';
import { pytorchBinCopy } from '../fixtures/torch-save.js';
import { waitForText } from '../fixtures/wait-for-text.js';
import { http, isvc } from './server-http.js';

const TSX = resolve(process.cwd(), 'node_modules/.bin/tsx');
const MAIN = resolve(process.cwd(), 'src/cli/main.ts');
/** KServe's tiny BERT checkpoint (onnx/model.onnx, inline weights), served twice under two names. */
const MODEL_DIR = resolve(process.cwd(), '../shared/conformance/kserve-hf/model');

const tokenService = (name: string) => `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: ${name}
spec:
  predictor:
    model:
      modelFormat:
        name: huggingface
      args:
        - --model_name=${name}
        - --model_id=${MODEL_DIR}
`;

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

/** Starts `inferkit serve ARGS` as a child process (killed after the test) and waits for its URL; stdout and stderr go to `output`. */
async function startServe(args: readonly string[], env: Record<string, string>): Promise<{ proc: ChildProcess; output: { text: string }; url: string }> {
  const proc = spawn(TSX, [MAIN, 'serve', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child = proc;
  const output = { text: '' };
  proc.stdout?.on('data', (c: Buffer) => (output.text += c.toString('utf8')));
  proc.stderr?.on('data', (c: Buffer) => (output.text += c.toString('utf8')));
  const [, url] = await waitForText(proc, output, /serving on (http:\/\/127\.0\.0\.1:\d+)\s/, 30_000);
  return { proc, output, url };
}

describe('inferkit serve (child process)', () => {
  it('serves the two examples on a free port, answers V1 and forecast by Host, and exits 0 on SIGINT', async () => {
    cache = await mkdtemp(join(tmpdir(), 'inferkit-serve-cli-'));
    const { proc, output, url } = await startServe(['examples/token-classification.yaml', 'examples/forecast.yaml', '--port', '0'], { INFERKIT_CACHE: cache, INFERKIT_OFFLINE: '1' });
    await waitForText(proc, output, /models loaded:/, 30_000);
    expect(output.text).not.toMatch(/FAILED/);
    // The process's memory once the models are up (RSS, and PSS where Linux tells it).
    await waitForText(proc, output, /memory: RSS \d+\.\d\d GiB(, PSS \d+\.\d\d GiB)? for 2 models/, 5_000);
    expect(output.text).toContain('weights one copy per model (one session, or replicas sharing one packed copy)');
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
    const { proc, output, url } = await startServe(['examples/forecast.yaml', '--port', '0', '--api-key', 'k-test-123', '--allowed-host', 'models.lan', '--max-json-depth', '8', '--prepack'], { INFERKIT_API_KEY: '' });
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

describe('inferkit serve (child process): memory per model at start-up', () => {
  it('prints one memory line per model (two ONNX models loading at once, a baseline), their phases one after the other', async () => {
    cache = await mkdtemp(join(tmpdir(), 'inferkit-serve-memory-'));
    const file = join(cache, 'models.yaml');
    await writeFile(file, [tokenService('ner-a'), tokenService('ner-b')].join('---\n'));
    const { proc, output, url } = await startServe([file, 'examples/forecast.yaml', '--port', '0'], { INFERKIT_CACHE: join(cache, 'cache'), INFERKIT_OFFLINE: '1' });
    await waitForText(proc, output, /memory: RSS \d+\.\d\d GiB(, PSS \d+\.\d\d GiB)? for 3 models/, 45_000);
    expect(output.text).not.toMatch(/FAILED/);

    const growth = String.raw`[+-]\d+(\.\d\d GiB| MiB)`;
    const weights = (statSync(join(MODEL_DIR, 'onnx/model.onnx')).size / 2 ** 20).toFixed(1);
    for (const name of ['ner-a', 'ner-b']) {
      expect(output.text).toMatch(new RegExp(`\\n    ${name} memory at load: RSS ${growth}(, PSS ${growth})? \\(weights ${weights} MiB: RSS -?\\d+\\.\\d\\d×(, PSS -?\\d+\\.\\d\\d×)?\\)`));
    }
    expect(output.text).toMatch(new RegExp(`\\n    chronos-bolt memory at load: RSS ${growth}(, PSS ${growth})? \\(no weights\\)`));
    // A published graph says so (the baseline has none).
    for (const name of ['ner-a', 'ner-b']) {
      expect(output.text).toContain(`\n    ${name} graph: onnx/model.onnx (published ONNX graph)\n`);
    }
    expect(output.text).not.toContain('chronos-bolt graph:');
    // Each model's line comes under its own state line, before the process total.
    const loaded = output.text.slice(output.text.indexOf('models loaded:'));
    expect(loaded.indexOf('model=ner-a')).toBeLessThan(loaded.indexOf('ner-a memory at load'));
    expect(loaded.indexOf('ner-a memory at load')).toBeLessThan(loaded.indexOf('model=ner-b'));
    expect(loaded.indexOf('chronos-bolt memory at load')).toBeLessThan(loaded.indexOf('memory: RSS'));

    // The same numbers in the services listing; the three phases did not overlap.
    const listed = await http(url, '/inferkit/v1/services');
    expect(listed.status).toBe(200);
    const services = (listed.json() as { services: Array<{ name: string; memory?: ModelMemory }> }).services;
    const memory = new Map(services.map((s) => [s.name, s.memory]));
    expect(memory.get('ner-a')?.weightsBytes).toBe(statSync(join(MODEL_DIR, 'onnx/model.onnx')).size);
    expect(memory.get('chronos-bolt')?.weightsBytes).toBeUndefined();
    const phases = [...memory.values()].map((m) => m?.phase).filter((p) => p !== undefined).sort((a, b) => a.order - b.order);
    expect(phases.map((p) => p.order)).toEqual([1, 2, 3]);
    for (let i = 1; i < phases.length; i++) {
      expect(Date.parse(phases[i].startedAt)).toBeGreaterThanOrEqual(Date.parse(phases[i - 1].endedAt));
    }
  }, 90_000);
});

describe('inferkit serve (child process): checkpoints published as pytorch_model.bin', () => {
  // DeBERTa-v3 and XLM-R folders holding only pytorch_model.bin (as older hub fine-tunes ship them): every V1 and V2
  // exchange KServe answered 200 under the sets' default args is answered as KServe answered it.
  const sets = [
    { folder: 'kserve-hf-deberta-v3', name: 'deberta' },
    { folder: 'kserve-hf-xlmr', name: 'xlmr' },
  ];
  it('loads both from pytorch_model.bin and answers every recorded V1 and V2 exchange of their default args as KServe did', async () => {
    cache = await mkdtemp(join(tmpdir(), 'inferkit-serve-bin-'));
    const root = cache;
    const manifests = sets.map((s) => {
      const dir = pytorchBinCopy(resolve(process.cwd(), '../shared/conformance', s.folder, 'model'), join(root, s.name));
      return stringify(isvc(s.name, { args: [`--model_id=${dir}`, '--task=token_classification', '--backend=huggingface'] }));
    });
    const file = join(root, 'models.yaml');
    await writeFile(file, manifests.join('---\n'));
    const { proc, output, url } = await startServe([file, '--port', '0'], { INFERKIT_CACHE: join(root, 'cache'), INFERKIT_OFFLINE: '1' });
    await waitForText(proc, output, /memory: RSS .* for 2 models/, 60_000);
    expect(output.text).not.toMatch(/FAILED/);
    // Start-up names the file each graph was built from, and the services listing reports it.
    expect(output.text).toMatch(/\n    deberta graph: built as deberta-v2 fp32 from pytorch_model\.bin in \d+( ms|\.\d s)\n/);
    expect(output.text).toMatch(/\n    xlmr graph: built as roberta fp32 from pytorch_model\.bin in \d+( ms|\.\d s)\n/);
    const listed = (await http(url, '/inferkit/v1/services')).json() as { services: Array<{ name: string; graph?: unknown }> };
    expect(listed.services.map((s) => [s.name, s.graph])).toEqual([
      ['deberta', { from: 'checkpoint', file: 'pytorch_model.bin', family: 'deberta-v2', variant: 'fp32', cached: false, buildMs: expect.any(Number) as number }],
      ['xlmr', { from: 'checkpoint', file: 'pytorch_model.bin', family: 'roberta', variant: 'fp32', cached: false, buildMs: expect.any(Number) as number }],
    ]);
    let sent = 0;
    for (const s of sets) {
      const args = `--model_name=${s.name} --model_id=./model --task=token_classification --backend=huggingface`;
      const exchanges = loadExchanges(resolve(process.cwd(), '../shared/conformance', s.folder)).filter(
        (e) => (e.kind === 'v1_predict' || e.kind === 'v2_infer') && e.response.status === 200 && e.server_args.join(' ') === args,
      );
      expect(exchanges.length, s.folder).toBeGreaterThan(50);
      for (const e of exchanges) {
        expectReplayed(e, await sendExchange(url, e), undefined);
        sent++;
      }
    }
    expect(sent).toBe(180);
  }, 120_000);
});
