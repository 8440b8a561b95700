import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globals: true,
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The JSON report feeds the plain `N passed, N failed` line that .ci/run prints.
    reporters: ['default', 'json'],
    outputFile: { json: 'out/vitest.json' },
  },
});
