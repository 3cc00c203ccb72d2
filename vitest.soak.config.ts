import { defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

/** `npm run soak`: the long mixed-traffic run (test/soak), kept out of `npm test`. */
export default defineConfig({
  test: { ...shared, include: ['test/soak/**/*.test.ts'] },
});
