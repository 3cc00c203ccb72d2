import { defineConfig } from 'vitest/config';

// `npm run corpus`'s second phase (scripts/corpus/run.mjs starts it): the sample of the directory served and
// called, in one file (test/corpus/sample.corpus.ts), outside `npm test` and the interop suite.
export default defineConfig({ test: { include: ['test/corpus/*.corpus.ts'], testTimeout: 3_600_000, hookTimeout: 120_000, maxWorkers: 1 } });
