import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/fixtures/run-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inferkit-serve-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('inferkit serve', () => {
  it('refuses a manifest with an unknown field before loading anything, naming the file, the path and the right name', async () => {
    const example = await readFile('examples/token-classification.yaml', 'utf8');
    expect(example).toContain('resources:');
    const typo = join(dir, 'typo.yaml');
    await writeFile(typo, example.replace('resources:', 'resource:'));
    const r = await runCli(['serve', typo, '--port', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`${typo}: manifest: documents[0].spec.predictor.model.resource: unknown field "resource"; did you mean "resources"?`);
  });
});
