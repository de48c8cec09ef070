import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One temporary folder for the whole suite, removed at its end (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // Most tests wait on the processes they start (CLI, workers, Redis, Chromium), not on their own CPU:
    // one test file per core, at least two, halves the wall time on 2 cores (vitest's default leaves a core free).
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
