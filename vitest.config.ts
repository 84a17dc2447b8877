import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // zod is configured the way the CLI entry configures it, before any schema is built.
    setupFiles: ['src/platform/zod-runtime.ts'],
    pool: 'forks',
    // Two cores: more parallel files only queue behind each other and PGlite is CPU-bound.
    maxWorkers: 2,
    // A guard against a hung run, not a performance assertion.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
