import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLoaders } from '../../src/server/default-loaders.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { http, isvc, v1 } from './server-http.js';

// A repo whose tokenizer.json holds a part tokenizers aborts the whole process on (here an empty Precompiled charsmap),
// served beside a good one: before the check, loading it ended the server and the good model with it.
const SET = join(process.cwd(), '../shared/conformance/kserve-hf-roberta/model');
const root = mkdtempSync(join(tmpdir(), 'inferkit-aborts-srv-'));
let server: RunningServer;

beforeAll(async () => {
  const good = join(root, 'good');
  const bad = join(root, 'bad');
  for (const dir of [good, bad]) {
    cpSync(SET, dir, { recursive: true });
  }
  const path = join(bad, 'tokenizer.json');
  const json = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  writeFileSync(path, JSON.stringify({ ...json, normalizer: { type: 'Sequence', normalizers: [{ type: 'Precompiled', precompiled_charsmap: '' }] } }));
  const manifest = (name: string, dir: string) => isvc(name, { args: [`--model_id=${dir}`, '--task=token_classification'] });
  server = await serve([manifest('good', good), manifest('bad', bad)], { port: 0, loaders: defaultLoaders({ cacheDir: join(root, 'cache') }), log: () => undefined });
  await server.loaded();
});
afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('serve: a tokenizer.json tokenizers would abort on fails its own service only', () => {
  it('reports the bad service FAILED naming the file and the field, not retried, and the good one answers', async () => {
    const bad = server.models().find((m) => m.name === 'bad');
    expect(bad).toMatchObject({ phase: 'failed', ready: false });
    expect(bad?.reason).toMatch(/Could not load the tokenizer .*tokenizer\.json: normalizer\.normalizers\[0\]\.precompiled_charsmap holds 0 bytes, fewer than its 4-byte trie size/);
    expect(bad?.retry).toBeUndefined();
    const answer = await http(server.url, '/v1/models/good:predict', { body: v1('Angela Merkel visited Paris') });
    expect(answer.status).toBe(200);
    expect((answer.json() as { predictions: unknown[] }).predictions).toHaveLength(1);
    const refused = await http(server.url, '/v1/models/bad:predict', { body: v1('Angela Merkel visited Paris') });
    expect(refused.status).toBe(503);
  });
});
