import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One temporary folder for the whole suite, removed at its end (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    // Caps against a hang, never a measure of the work: at load 12-20 a test that plays the README's quick tune
    // takes minutes (issue 79), and tests wait for events, not for time.
    testTimeout: 1_200_000,
    hookTimeout: 1_200_000,
    // Most tests wait on the processes they start (CLI, workers, Redis, Chromium), not on their own CPU: three
    // files a core keep the cores busy while some wait, and beside another job keeping the cores busy the
    // suite keeps its share of them (on 2 cores, beside two busy loops: 743 s with 2 files at once, 614 s with
    // 4, 555 s with 6). At most 8, however many cores.
    maxWorkers: Math.min(8, Math.max(4, 3 * availableParallelism())),
  },
});
