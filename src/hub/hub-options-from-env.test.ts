import { describe, expect, it } from 'vitest';
import { hubOptionsFromEnv } from './hub-options-from-env.js';

describe('hubOptionsFromEnv', () => {
  it('reads token, endpoint, offline and cache dir, with explicit overrides winning', () => {
    const env = { HF_TOKEN: 'hf_x', HF_ENDPOINT: 'http://127.0.0.1:1', HF_HUB_OFFLINE: '1', INFERKIT_CACHE: '/tmp/c' };
    expect(hubOptionsFromEnv({}, env)).toEqual({ accessToken: 'hf_x', hubUrl: 'http://127.0.0.1:1', offline: true, cacheDir: '/tmp/c' });
    expect(hubOptionsFromEnv({ offline: false, cacheDir: '/x' }, env)).toMatchObject({ offline: false, cacheDir: '/x' });
    expect(hubOptionsFromEnv({}, { INFERKIT_CACHE: '/c' })).not.toHaveProperty('accessToken');
  });
});
