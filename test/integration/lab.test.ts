import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Reads the child's output until `pattern` matches (bounded by `ms`). */
function waitForLine(child: ReturnType<typeof spawn>, pattern: RegExp, ms: number): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no ${String(pattern)} within ${ms} ms; output:\n${seen}`)), ms);
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      const m = seen.match(pattern);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`lab exited with ${code}; output:\n${seen}`));
    });
  });
}

describe('npm run lab (scripts/lab.sh)', () => {
  it('starts Jupyter with the tslab kernel and prints a URL that opens it', { timeout: 180_000 }, async () => {
    const child = spawn('bash', ['scripts/lab.sh'], { env: { ...process.env, LAB_PORT: '0' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const [, url] = await waitForLine(child, /open: (http:\/\/127\.0\.0\.1:\d+\/tree\?token=[0-9a-f]+)/, 120_000);
      const { origin, searchParams } = new URL(url);
      const token = searchParams.get('token') ?? '';
      let specs: { kernelspecs?: Record<string, { spec: { display_name: string } }> } = {};
      for (let attempt = 0; attempt < 60 && specs.kernelspecs === undefined; attempt++) {
        const res = await fetch(`${origin}/api/kernelspecs`, { headers: { Authorization: `token ${token}` } }).catch(() => undefined);
        if (res?.ok) {
          specs = (await res.json()) as typeof specs;
        } else {
          await new Promise((r) => setTimeout(r, 500));
        }
      }
      expect(specs.kernelspecs?.tslab?.spec.display_name).toBe('TypeScript');
      const page = await fetch(url);
      expect(page.status).toBe(200);
      const contents = await fetch(`${origin}/api/contents`, { headers: { Authorization: `token ${token}` } });
      const names = ((await contents.json()) as { content: Array<{ name: string }> }).content.map((c) => c.name);
      expect(names).toContain('01-manifests.ipynb');
      // Without the token the server refuses API calls.
      expect((await fetch(`${origin}/api/kernelspecs`)).status).toBe(403);
    } finally {
      if (child.pid !== undefined && child.exitCode === null) {
        process.kill(-child.pid, 'SIGTERM');
      }
    }
  });
});
