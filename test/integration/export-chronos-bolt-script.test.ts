import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'export-chronos-bolt.py');
const RECORDER = join(import.meta.dirname, '..', '..', 'scripts', 'record-chronos-bolt-conformance.py');
const python = (args: string[]) => spawnSync('python3', args, { encoding: 'utf8', timeout: 60_000, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
const hasPython = python(['--version']).status === 0;
const hasTorch = hasPython && python(['-c', 'import torch, chronos']).status === 0;

describe('scripts/export-chronos-bolt.py', () => {
  it.skipIf(!hasPython)('is valid Python and documents its arguments', () => {
    expect(python(['-c', `import ast, sys; ast.parse(open(sys.argv[1]).read())`, SCRIPT]).status).toBe(0);
    const help = python([SCRIPT, '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/model\s+hub id \(amazon\/chronos-bolt-small\) or local folder/);
    expect(help.stdout).toMatch(/--check/);
  });

  it.skipIf(!hasPython)('has a conformance recorder that is valid Python and documents its arguments', () => {
    expect(python(['-c', `import ast, sys; ast.parse(open(sys.argv[1]).read())`, RECORDER]).status).toBe(0);
    const help = python([RECORDER, '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/model\s+hub id or local folder of a Chronos-Bolt model/);
  });

  it.skipIf(!hasPython)('the recorder names a local model folder by its name in cases.json, never by its path on this machine', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'inferkit-recorder-')), 'tiny-bolt');
    mkdirSync(dir);
    try {
      const code = 'import importlib.util, sys; s = importlib.util.spec_from_file_location("r", sys.argv[1]); m = importlib.util.module_from_spec(s); s.loader.exec_module(m); print(m.model_label(sys.argv[2])); print(m.model_label("amazon/chronos-bolt-small"))';
      const run = python(['-c', code, RECORDER, dir]);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.trim().split('\n')).toEqual(['tiny-bolt', 'amazon/chronos-bolt-small']);
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });

  it.skipIf(!hasPython || hasTorch)('says which packages to install when PyTorch or chronos-forecasting is missing, and writes nothing', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'inferkit-export-')), 'bolt');
    try {
      const run = python([SCRIPT, 'amazon/chronos-bolt-small', out]);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/missing Python package '(torch|chronos)'; pip install "torch>=2\.6" onnx onnxscript chronos-forecasting/);
      expect(existsSync(out)).toBe(false);
    } finally {
      rmSync(join(out, '..'), { recursive: true, force: true });
    }
  });
});
