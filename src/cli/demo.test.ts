import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/fixtures/run-cli.js';

describe('inferkit demo --help', () => {
  it('names the one model cache as the --cache default, following INFERKIT_CACHE', async () => {
    const r = await runCli(['demo', '--help'], { INFERKIT_CACHE: '/srv/models/inferkit-cache' });
    expect(r.code).toBe(0);
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('(default: /srv/models/inferkit-cache, from $INFERKIT_CACHE, else $XDG_CACHE_HOME/inferkit, else ~/.cache/inferkit)');
    expect(text).not.toContain('default: .cache');
  });
});
