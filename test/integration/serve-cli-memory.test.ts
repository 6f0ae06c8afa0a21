import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelMemory } from '../../src/runtime/model-memory/model-memory.js';
import { waitForText } from '../fixtures/wait-for-text.js';
import { http } from './server-http.js';

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
let dir: string | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
  }
  child = undefined;
  if (dir) {
    await rm(dir, { recursive: true, force: true });
  }
});

describe('inferkit serve (child process): memory per model at start-up', () => {
  it('prints one memory line per model (two ONNX models loading at once, a baseline), their phases one after the other', async () => {
    dir = await mkdtemp(join(tmpdir(), 'inferkit-serve-memory-'));
    const file = join(dir, 'models.yaml');
    await writeFile(file, [tokenService('ner-a'), tokenService('ner-b')].join('---\n'));
    const proc = spawn(TSX, [MAIN, 'serve', file, 'examples/forecast.yaml', '--port', '0'], {
      env: { ...process.env, INFERKIT_CACHE: join(dir, 'cache'), INFERKIT_OFFLINE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    const output = { text: '' };
    proc.stdout?.on('data', (c: Buffer) => (output.text += c.toString('utf8')));
    proc.stderr?.on('data', (c: Buffer) => (output.text += c.toString('utf8')));
    const [, url] = await waitForText(proc, output, /serving on (http:\/\/127\.0\.0\.1:\d+)\s/, 30_000);
    await waitForText(proc, output, /memory: RSS \d+\.\d\d GiB(, PSS \d+\.\d\d GiB)? for 3 models/, 45_000);
    expect(output.text).not.toMatch(/FAILED/);

    const growth = String.raw`[+-]\d+(\.\d\d GiB| MiB)`;
    const weights = (statSync(join(MODEL_DIR, 'onnx/model.onnx')).size / 2 ** 20).toFixed(1);
    for (const name of ['ner-a', 'ner-b']) {
      expect(output.text).toMatch(new RegExp(`\\n    ${name} memory at load: RSS ${growth}(, PSS ${growth})? \\(weights ${weights} MiB: RSS -?\\d+\\.\\d\\d×(, PSS -?\\d+\\.\\d\\d×)?\\)`));
    }
    expect(output.text).toMatch(new RegExp(`\\n    chronos-bolt memory at load: RSS ${growth}(, PSS ${growth})? \\(no weights\\)`));
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
