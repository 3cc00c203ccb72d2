import { defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

// One file at a time: the conformance suite alone starts 39 client processes at once, and these
// machines have two cores; a process starved for seconds is how CI once lost a keep-alive race.
export default defineConfig({ test: { ...shared, globalSetup: [...shared.globalSetup, 'test/support/shared-redis-teardown.ts'], include: ['test/interop/**/*.test.ts'], fileParallelism: false } });
