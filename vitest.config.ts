import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'clients/ts/test/**/*.test.ts'],
    // Child processes, not threads: uWS and Chromium are happier with a process of their own.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
  },
});
