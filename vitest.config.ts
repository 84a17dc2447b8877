import { defineConfig } from 'vitest/config';
import { FileTimesSequencer } from './test/support/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // zod is configured the way the CLI entry configures it, before any schema is built.
    setupFiles: ['src/platform/zod-runtime.ts'],
    pool: 'forks',
    // The files of one worker share its module cache: each file used to pay its own imports (~80 s of
    // the suite) and PGlite's WASM compilation. Every suite closes what it starts (services, stores,
    // browsers) and no module keeps state between them; what a file may assume is in DEVELOPING.md.
    isolate: false,
    // Two cores: more parallel files only queue behind each other and PGlite is CPU-bound.
    maxWorkers: 2,
    // The longest files first (test/file-times.json), in a fresh clone too: the run ends with short ones.
    sequence: { sequencer: FileTimesSequencer },
    // A guard against a hung run, not a performance assertion.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
