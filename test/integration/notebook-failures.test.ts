import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectKilledRunLeavesNoKernel } from './killed-kernel.js';
import { runGroup } from './run-group.js';
import { tempDir } from '../fixtures/temp-dirs.js';

/** A tslab notebook of the given code cells. */
function notebook(cells: string[]): string {
  return JSON.stringify({
    cells: cells.map((source, i) => ({ cell_type: 'code', id: `c${i}`, metadata: {}, execution_count: null, outputs: [], source })),
    metadata: { kernelspec: { display_name: 'TypeScript', language: 'typescript', name: 'tslab' } },
    nbformat: 4,
    nbformat_minor: 5,
  });
}

describe('headless notebook runs (scripts/run-notebooks.sh)', () => {
  it('print the failing cell with what it wrote to stderr, and keep the executed copy', { timeout: 240_000 }, async () => {
    const dir = tempDir('inferkit-nbfail-');
    await writeFile(join(dir, 'fail.ipynb'), notebook([
      "console.log('first cell ran');",
      "console.error('loading 24 series');\nthrow new Error('boom: the cause');",
      "console.log('never runs');",
    ]));
    const r = await runGroup('bash', ['scripts/run-notebooks.sh', join(dir, 'fail.ipynb')], { env: { ...process.env, NOTEBOOK_OUT: join(dir, 'out') }, timeoutMs: 200_000 });
    expect(r.code).toBe(1);
    // nbconvert alone said only "<Error>:" (tslab sends no ename/evalue); the cause was on the cell's stderr.
    expect(r.stdout).toContain('fail.ipynb: cell 2 of 3 raised an error');
    expect(r.stdout).toContain("throw new Error('boom: the cause');");
    expect(r.stdout).toContain('[stderr] loading 24 series');
    expect(r.stdout).toContain('[stderr] Error: boom: the cause');
    const executed = await readFile(join(dir, 'out', 'fail.ipynb'), 'utf8');
    expect(executed).toContain('first cell ran');
    expect(executed).not.toContain('never runs"');
  });

  it('leave no tslab kernel running when the run is killed (a CI timeout)', { timeout: 240_000 }, async () => {
    const dir = tempDir('inferkit-nbkill-');
    const pidFile = join(dir, 'kernel.pid');
    await writeFile(join(dir, 'hang.ipynb'), notebook([
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(pidFile)}, String(process.pid));\nawait new Promise((r) => setTimeout(r, 600_000));`,
    ]));
    await expectKilledRunLeavesNoKernel({ command: 'bash', args: ['scripts/run-notebooks.sh', join(dir, 'hang.ipynb')], env: { ...process.env, NOTEBOOK_OUT: join(dir, 'out') }, pidFile, kernel: 'tslab' });
  });
});
