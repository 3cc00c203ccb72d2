import { defineConfig } from 'vitest/config';

/** Settings both suites share; `npm run test:interop` uses vitest.interop.config.ts. */
export const shared = {
  globalSetup: ['test/support/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // End-to-end tests spawn servers and tsc; two cores are all these machines have.
  maxWorkers: 2,
};

export default defineConfig({
  test: {
    ...shared,
    include: ['test/**/*.test.ts'],
    // Interop (official SDK both ways, nginx) runs with `npm run test:interop`, the soak with `npm run soak`.
    exclude: ['test/interop/**', 'test/soak/**', '**/node_modules/**'],
  },
});
