import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const DEMO_TIMEOUT_MS = 120_000;
let tmp: string | undefined;

afterAll(async () => {
  if (tmp) {
    await rm(tmp, { recursive: true, force: true });
  }
});

function runCli(args: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: process.cwd(),
      env: { ...process.env, HF_HUB_OFFLINE: '1', INGRESS_HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`demo did not finish within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('npm run demo', () => {
  it(
    'generates the fixtures, serves the examples, answers V1, V2 and forecast through the Host header, charts, stops',
    async () => {
      tmp = await mkdtemp(join(tmpdir(), 'inferkit-demo-'));
      const out = join(tmp, 'out');
      const { code, stdout, stderr } = await runCli(['demo', '--cache', join(tmp, 'models'), '--out', out], DEMO_TIMEOUT_MS);
      expect(stderr, stdout).not.toMatch(/demo: /);
      expect(code, `${stdout}\n${stderr}`).toBe(0);

      expect(stdout).toMatch(/^== server {2}http:\/\/127\.0\.0\.1:\d+/m);
      expect(stdout).toContain('huggingface-bert: bert ← inferkit/ner-fixture (token_classification, v1) ready');
      expect(stdout).toContain('huggingface-bert-v2: bert ← inferkit/ner-fixture (token_classification, v2) ready');
      expect(stdout).toContain('chronos-forecast: chronos-bolt ← baseline/seasonal-naive (time_series_forecast, v1) ready');
      // status listing: the three example services, all READY True
      expect(stdout).toMatch(/NAME\s+URL\s+READY\s+PREV\s+LATEST\s+PREVROLLEDOUTREVISION\s+LATESTREADYREVISION\s+AGE/);
      for (const [name, url] of [
        ['huggingface-bert', 'http://huggingface-bert.default.example.com'],
        ['huggingface-bert-v2', 'http://huggingface-bert-v2.default.example.com'],
        ['chronos-forecast', 'http://chronos-forecast.forecasting.example.com'],
      ]) {
        expect(stdout).toMatch(new RegExp(`^\\s+${name}\\s+${url.replace(/\./g, '\\.')}\\s+True\\s+100\\s+${name}-predictor-00001`, 'm'));
      }
      // V1 through the Host of the V1 service: per-instance class ids, labels decoded
      expect(stdout).toMatch(/== V1 POST http:\/\/127\.0\.0\.1:\d+\/v1\/models\/bert:predict\n {2}Host: huggingface-bert\.default\.example\.com/);
      expect(stdout).toContain('ids    [[0,0,0,0,3,0,0,0,0,7,0]]');
      expect(stdout).toContain('labels O B-PER I-PER O O B-ORG I-ORG O B-LOC I-LOC O');
      // V2 through the Host of the V2 service
      expect(stdout).toMatch(/== V2 POST http:\/\/127\.0\.0\.1:\d+\/v2\/models\/bert\/infer\n {2}Host: huggingface-bert-v2\.default\.example\.com/);
      expect(stdout).toContain('output output-0 INT64 shape=[2, 1, 11]');
      // forecast: univariate + multivariate, quantiles, aligned starts
      expect(stdout).toMatch(/== forecast POST .*\/v1\/timeseries\/forecast\n {2}Host: chronos-forecast\.forecasting\.example\.com/);
      expect(stdout).toMatch(/status=completed model=chronos-bolt error=null/);
      expect(stdout).toContain('air_passengers (univariate_time_series, M) starts 1961-01-01T00:00:00Z'); // frequency echoed as sent
      expect(stdout).toContain('accidental_and_lung_deaths (multivariate_time_series, month) starts 1979-01-01T00:00:00Z');
      expect(stdout).toMatch(/q0\.1 +\[/);
      expect(stdout).toMatch(/== server stopped\s*$/);

      expect(readdirSync(join(tmp, 'models')).length, 'fixture models written into --cache').toBeGreaterThan(0);
      const html = await readFile(join(out, 'forecast.html'), 'utf8');
      expect(html).toContain('Plotly.newPlot');
      expect(html).toContain('uk_lung_deaths');
      if (existsSync('/usr/bin/chromium')) {
        const png = await readFile(join(out, 'forecast.png'));
        expect(png.subarray(1, 4).toString()).toBe('PNG');
        expect(png.length).toBeGreaterThan(10_000);
      }
    },
    DEMO_TIMEOUT_MS + 10_000,
  );
});
