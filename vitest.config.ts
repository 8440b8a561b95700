import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globals: true,
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Every test file is CPU-bound and the main process idles while they run, so the suite
    // takes one worker per core (vitest's default leaves one core out, which on two cores runs
    // the files one at a time). The files share each worker's module graph (`isolate: false`):
    // no test mocks a module or stubs a global, and importing the engine afresh for each of
    // the 108 files cost a fifth of the suite's time.
    maxWorkers: availableParallelism(),
    isolate: false,
    // The JSON report feeds the plain `N passed, N failed` line that .ci/run prints.
    reporters: ['default', 'json'],
    outputFile: { json: 'out/vitest.json' },
  },
});
