import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyOption } from './serve.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inferkit-api-key-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('apiKeyOption', () => {
  it('--api-key wins; --api-key-file gives its first line, trimmed', async () => {
    expect(await apiKeyOption({ apiKey: 'k1' })).toBe('k1');
    const file = join(dir, 'key');
    await writeFile(file, '  k-file \r\nsecond line\n');
    expect(await apiKeyOption({ apiKeyFile: file })).toBe('k-file');
  });

  it('refuses both flags, an empty file and a missing one, never echoing a key', async () => {
    const empty = join(dir, 'empty');
    await writeFile(empty, '\n');
    await expect(apiKeyOption({ apiKey: 'k-secret', apiKeyFile: empty })).rejects.toThrow(/give --api-key or --api-key-file, not both/);
    await expect(apiKeyOption({ apiKeyFile: empty })).rejects.toThrow(/is empty; write the key on its first line/);
    await expect(apiKeyOption({ apiKeyFile: join(dir, 'missing') })).rejects.toThrow(/cannot read .*\(ENOENT\)/);
    await expect(apiKeyOption({ apiKey: 'k-secret', apiKeyFile: empty })).rejects.not.toThrow(/k-secret/);
  });
});
