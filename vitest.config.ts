import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // End-to-end tests spawn servers and tsc; two cores are all these machines have.
    maxWorkers: 2,
  },
});
