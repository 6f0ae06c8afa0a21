import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { isInferkitError } from '../errors.js';
import { closeRenderer, rendererStats, withBrowser } from './chromium-pool.js';
import { tempDir } from '../../test/fixtures/temp-dirs.js';

const CHROMIUM = '/usr/bin/chromium';
const lease = { chromiumPath: CHROMIUM, timeoutMs: 60_000 };

/** The pid of the shared browser, read while a lease holds it. */
async function leasedPid(options: { chromiumPath: string; timeoutMs: number; idleMs?: number } = lease): Promise<number> {
  return withBrowser(options, async (browser) => {
    expect(browser.isConnected()).toBe(true);
    const pids = rendererStats().pids;
    expect(pids.length).toBeGreaterThan(0);
    return pids[pids.length - 1];
  });
}

async function waitFor(check: () => boolean): Promise<boolean> {
  for (let i = 0; i < 100 && !check(); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

describe('withBrowser', { timeout: 90_000 }, () => {
  beforeEach(() => closeRenderer());
  afterAll(() => closeRenderer());

  it('reuses one browser across sequential calls', async () => {
    const before = rendererStats().launches;
    const first = await leasedPid();
    const second = await leasedPid();
    expect(second).toBe(first);
    expect(rendererStats().launches - before).toBe(1);
    expect(rendererStats().open).toBe(1);
  });

  it('launches once for concurrent calls', async () => {
    const before = rendererStats().launches;
    const pids = await Promise.all([leasedPid(), leasedPid(), leasedPid()]);
    expect(new Set(pids).size).toBe(1);
    expect(rendererStats().launches - before).toBe(1);
  });

  it('relaunches after closeRenderer()', async () => {
    const before = rendererStats().launches;
    const first = await leasedPid();
    await closeRenderer();
    expect(rendererStats().open).toBe(0);
    const second = await leasedPid();
    expect(second).not.toBe(first);
    expect(rendererStats().launches - before).toBe(2);
  });

  it('relaunches when the browser was killed', async () => {
    const first = await leasedPid();
    process.kill(first, 'SIGKILL');
    expect(await waitFor(() => rendererStats().open === 0)).toBe(true);
    const second = await leasedPid();
    expect(second).not.toBe(first);
  });

  it('closes the browser after idleMs without use', async () => {
    await leasedPid({ ...lease, idleMs: 200 });
    expect(await waitFor(() => rendererStats().open === 0 && rendererStats().pids.length === 0)).toBe(true);
  });

  it('gives each executable path its own browser', async () => {
    const dir = tempDir('inferkit-chromium-');
    const other = join(dir, 'chromium');
    await symlink(CHROMIUM, other);
    const before = rendererStats().launches;
    const [a, b] = await Promise.all([leasedPid(), leasedPid({ ...lease, chromiumPath: other })]);
    expect(a).not.toBe(b);
    expect(rendererStats().launches - before).toBe(2);
    expect(rendererStats().open).toBe(2);
  });

  it('fails with a config error when the executable is not a browser, and tries again next time', async () => {
    const bad = { chromiumPath: '/bin/false', timeoutMs: 10_000 };
    for (let i = 0; i < 2; i++) {
      const err = await withBrowser(bad, async () => 'unreachable').catch((e: unknown) => e);
      expect(isInferkitError(err) && err.code).toBe('config');
      expect(String((err as Error).message)).toContain('Chromium at /bin/false did not start');
    }
  });
});
