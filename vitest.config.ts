import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Tests that open sessions straight from onnxruntime-node get what src/runtime/ort.ts sets for inferkit's own.
    env: { ORT_DISABLE_TELEMETRY: '1' },
    // Names one folder per run where the tarball tests share one `npm pack` (test/integration/packed-tarball.ts), and
    // gives the run a model cache of its own (INFERKIT_CACHE), removed at its end.
    globalSetup: ['test/integration/pack-dir.global-setup.ts', 'test/integration/model-cache.global-setup.ts'],
  },
});
