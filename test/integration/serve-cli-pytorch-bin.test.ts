import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadExchanges, bodyText } from '../conformance/exchanges.js';
import { expectReplayed } from '../conformance/kserve-compare.js';
import { pytorchBinCopy } from '../fixtures/torch-save.js';
import { waitForText } from '../fixtures/wait-for-text.js';
import { http } from './server-http.js';

// `inferkit serve`, as a process, of KServe manifests whose model folders publish only pytorch_model.bin (DeBERTa-v3 and
// XLM-R, as older hub fine-tunes ship them): every V1 and V2 exchange KServe answered 200 under those args is answered
// as KServe answered it.
const TSX = resolve(process.cwd(), 'node_modules/.bin/tsx');
const MAIN = resolve(process.cwd(), 'src/cli/main.ts');
const SETS = join(process.cwd(), '../shared/conformance');
const root = mkdtempSync(join(tmpdir(), 'inferkit-serve-bin-'));
let child: ChildProcess | undefined;
afterAll(() => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
  }
  rmSync(root, { recursive: true, force: true });
});

const sets = [
  { folder: 'kserve-hf-deberta-v3', name: 'deberta' },
  { folder: 'kserve-hf-xlmr', name: 'xlmr' },
];
const groups = sets.map((s) => {
  const args = `--model_name=${s.name} --model_id=./model --task=token_classification --backend=huggingface`;
  const exchanges = loadExchanges(join(SETS, s.folder)).filter((e) => (e.kind === 'v1_predict' || e.kind === 'v2_infer') && e.response.status === 200 && e.server_args.join(' ') === args);
  return { ...s, exchanges };
});

describe('inferkit serve of checkpoints published as pytorch_model.bin (child process)', () => {
  it('loads both from pytorch_model.bin and answers every recorded V1 and V2 exchange as KServe did', async () => {
    const manifests: string[] = [];
    for (const s of sets) {
      const dir = pytorchBinCopy(join(SETS, s.folder, 'model'), join(root, s.name));
      const file = join(root, `${s.name}.yaml`);
      writeFileSync(file, `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: ${s.name}
spec:
  predictor:
    model:
      modelFormat:
        name: huggingface
      args:
        - --model_name=${s.name}
        - --model_id=${dir}
        - --task=token_classification
        - --backend=huggingface
`);
      manifests.push(file);
    }
    const proc = spawn(TSX, [MAIN, 'serve', ...manifests, '--port', '0'], { env: { ...process.env, INFERKIT_CACHE: join(root, 'cache'), INFERKIT_OFFLINE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    const output = { text: '' };
    proc.stdout?.on('data', (c: Buffer) => (output.text += c.toString('utf8')));
    proc.stderr?.on('data', (c: Buffer) => (output.text += c.toString('utf8')));
    const [, url] = await waitForText(proc, output, /serving on (http:\/\/127\.0\.0\.1:\d+)\s/, 30_000);
    await waitForText(proc, output, /models loaded:/, 60_000);
    expect(output.text).not.toMatch(/FAILED/);
    let sent = 0;
    for (const g of groups) {
      expect(g.exchanges.length, g.folder).toBeGreaterThan(50);
      for (const e of g.exchanges) {
        const body = bodyText(e);
        const r = await http(url, e.request.path, { method: e.request.method, headers: e.request.headers, ...(body === undefined ? {} : { body }) });
        expectReplayed(e, r, undefined);
        sent++;
      }
    }
    expect(sent).toBe(groups.reduce((n, g) => n + g.exchanges.length, 0));
    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    proc.kill('SIGINT');
    expect(await exited).toBe(0);
  }, 120_000);
});
