import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, describe, expect, it } from 'vitest';
import { GRAPH_BUILDERS } from '../builders.js';
import { openCheckpoint, type Checkpoint } from '../safetensors.js';
import { writeSafetensorsFile } from '../../../test/fixtures/safetensors-file.js';

// The encoder builders beyond the four conformance sets: Electra (BERT's layout under `electra.`, with an
// embedding projection when embedding_size differs) and the named errors of a config they cannot build.
const BERT_DIR = join(process.cwd(), '../shared/conformance/kserve-hf/model');
const root = mkdtempSync(join(tmpdir(), 'inferkit-enc-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A checkpoint folder of `tensors` (F32) and `config`. */
function writeCheckpoint(name: string, config: Record<string, unknown>, tensors: Map<string, { shape: number[]; data: Float32Array }>): string {
  const dir = join(root, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeSafetensorsFile(join(dir, 'model.safetensors'), [...tensors].map(([n, t]) => ({ name: n, dtype: 'F32', shape: t.shape, bytes: new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength) })));
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  return dir;
}

async function bertTensors(): Promise<{ ck: Checkpoint; tensors: Map<string, { shape: number[]; data: Float32Array }> }> {
  const ck = await openCheckpoint(BERT_DIR);
  const tensors = new Map(ck.names().map((n) => [n, { shape: ck.info(n).shape, data: ck.float32(n) }]));
  return { ck, tensors };
}

async function run(dir: string, family: string, ids: number[]): Promise<Float32Array> {
  const ck = await openCheckpoint(dir);
  const builder = GRAPH_BUILDERS[family];
  if (builder === undefined) {
    throw new Error(`no ${family} builder`);
  }
  const graph = await builder.build(ck, { variant: 'fp32' });
  const path = join(dir, 'graph.onnx');
  graph.writeExternal(path);
  const s = await ort.InferenceSession.create(path);
  const t = (v: number[]): ort.Tensor => new ort.Tensor('int64', BigInt64Array.from(v, BigInt), [1, v.length]);
  const feeds: Record<string, ort.Tensor> = { input_ids: t(ids), attention_mask: t(ids.map(() => 1)) };
  if (s.inputNames.includes('token_type_ids')) {
    feeds.token_type_ids = t(ids.map(() => 0));
  }
  const out = (await s.run(feeds)).logits;
  await s.release();
  return out.data as Float32Array;
}

const IDS = [101, 2026, 2171, 2003, 17693, 1998, 1045, 2444, 1999, 4068, 102];

describe('Electra and encoder config errors', () => {
  it('builds ElectraForTokenClassification as BERT under electra.*: the same weights give the same logits', async () => {
    const { tensors } = await bertTensors();
    const config = JSON.parse(readFileSync(join(BERT_DIR, 'config.json'), 'utf8')) as Record<string, unknown>;
    const bert = writeCheckpoint('bert', config, tensors);
    const renamed = new Map([...tensors].map(([n, t]) => [n.replace(/^bert\./, 'electra.'), t]));
    const electra = writeCheckpoint('electra', { ...config, architectures: ['ElectraForTokenClassification'], model_type: 'electra', embedding_size: 32 }, renamed);
    const [a, b] = [await run(bert, 'bert', IDS), await run(electra, 'electra', IDS)];
    expect(b).toHaveLength(IDS.length * 9);
    b.forEach((v, i) => expect(Math.abs(v - a[i])).toBeLessThan(1e-6));
  });

  it('projects Electra embeddings narrower than the hidden size (embeddings_project)', async () => {
    const { tensors } = await bertTensors();
    const config = JSON.parse(readFileSync(join(BERT_DIR, 'config.json'), 'utf8')) as Record<string, unknown>;
    const e = 16;
    const narrow = new Map<string, { shape: number[]; data: Float32Array }>();
    for (const [n, t] of tensors) {
      const name = n.replace(/^bert\./, 'electra.');
      if (name.startsWith('electra.embeddings.')) {
        const rows = t.shape.length === 2 ? t.shape[0] : 1;
        const cols = t.shape[t.shape.length - 1];
        const data = new Float32Array(rows * e);
        for (let r = 0; r < rows; r++) {
          data.set(t.data.subarray(r * cols, r * cols + e), r * e);
        }
        narrow.set(name, { shape: t.shape.length === 2 ? [rows, e] : [e], data });
      } else {
        narrow.set(name, t);
      }
    }
    narrow.set('electra.embeddings_project.weight', { shape: [32, e], data: Float32Array.from({ length: 32 * e }, (_, i) => ((i * 37) % 11) / 50 - 0.1) });
    narrow.set('electra.embeddings_project.bias', { shape: [32], data: new Float32Array(32) });
    const dir = writeCheckpoint('electra-narrow', { ...config, architectures: ['ElectraForTokenClassification'], embedding_size: e }, narrow);
    const logits = await run(dir, 'electra', IDS);
    expect(logits).toHaveLength(IDS.length * 9);
    expect(logits.every(Number.isFinite)).toBe(true);
  });

  it('names an activation it does not build and a config field that is missing', async () => {
    const { tensors } = await bertTensors();
    const config = JSON.parse(readFileSync(join(BERT_DIR, 'config.json'), 'utf8')) as Record<string, unknown>;
    const swish = await openCheckpoint(writeCheckpoint('swish', { ...config, hidden_act: 'swish' }, tensors));
    expect(() => GRAPH_BUILDERS.bert?.build(swish, { variant: 'fp32' })).toThrow(/activation "swish" is not one inferkit builds \(gelu, relu/);
    const { hidden_size: _dropped, ...rest } = config;
    const missing = await openCheckpoint(writeCheckpoint('no-hidden', rest, tensors));
    expect(() => GRAPH_BUILDERS.bert?.build(missing, { variant: 'fp32' })).toThrow(/hidden_size/);
  });
});
