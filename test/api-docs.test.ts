import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('docs/API.md (npm run docs)', () => {
  it('is up to date with the doc comments of src/index.ts', { timeout: 120_000 }, async () => {
    const r = await promisify(execFile)('node_modules/.bin/tsx', ['scripts/api-docs.ts', '--check']).catch((e: { stderr?: string }) => ({
      stdout: '',
      stderr: e.stderr ?? 'failed',
    }));
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('docs/API.md is up to date');
  });

  it('documents every value the entry exports, with a link to its source', async () => {
    const md = await readFile('docs/API.md', 'utf8');
    for (const name of Object.keys(api)) {
      expect(md, name).toContain(`### \`${name}\``);
    }
    expect(md).toContain('[src/plot/forecast-figure.ts](../src/plot/forecast-figure.ts)');
  });
});
