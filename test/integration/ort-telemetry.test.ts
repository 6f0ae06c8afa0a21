import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { platform, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const TSX = resolve(process.cwd(), 'node_modules/.bin/tsx');
const MODEL = resolve(process.cwd(), '../shared/conformance/kserve-hf/model');

// What an analyst's notebook does: load a classifier through the package's entry point and classify a text; the
// process prints its pid. onnxruntime-node's telemetry SDK (1DS), once started, leaves mat-debug-<pid>.log in the
// temp folder (TMPDIR, which the child inherits, else /tmp): the file tells whether it started.
const SCRIPT = `
import { loadTokenClassifier } from ${JSON.stringify(resolve(process.cwd(), 'src/index.ts'))};
const c = await loadTokenClassifier(${JSON.stringify(MODEL)}, { session: { intraOpThreads: 1 } });
await c.classify(['Angela Merkel visited Paris']);
await c.dispose();
console.log(process.pid);
`;

/** Runs SCRIPT with `telemetry` as ORT_DISABLE_TELEMETRY (undefined: unset); returns whether its 1DS debug file appeared. */
async function telemetryStarted(telemetry: string | undefined): Promise<boolean> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.ORT_DISABLE_TELEMETRY;
  // ONNX Runtime also keeps its telemetry off where CI is set (as CI runs this test): a user's machine has no CI.
  delete env.CI;
  if (telemetry !== undefined) {
    env.ORT_DISABLE_TELEMETRY = telemetry;
  }
  const { stdout } = await run(TSX, ['--eval', SCRIPT, '--input-type=module'], { env, timeout: 60_000 });
  const file = join(tmpdir(), `mat-debug-${stdout.trim().split('\n').pop() ?? ''}.log`);
  const found = existsSync(file);
  rmSync(file, { force: true });
  return found;
}

describe.runIf(platform() === 'linux')("onnxruntime-node's telemetry", () => {
  it('stays off in a process that uses inferkit, unless the user turns it back on (ORT_DISABLE_TELEMETRY=0)', async () => {
    expect(await telemetryStarted(undefined)).toBe(false);
    // The check can see it: with the user's explicit 0, ONNX Runtime starts its telemetry and its file appears.
    expect(await telemetryStarted('0')).toBe(true);
  }, 120_000);
});
