import { defineConfig } from 'vitest/config';

/** Settings both suites share; `npm run test:interop` uses vitest.interop.config.ts. */
export const shared = {
  globalSetup: ['test/support/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // End-to-end tests spawn servers and tsc; two cores are all these machines have.
  maxWorkers: 2,
};

// Files that change state of the process they run in, beyond their own modules: environment variables,
// fake timers, spies and stand-ins on globals, V8 flags, OpenTelemetry's global providers, the --watch
// caches turned on (pipeline.ts enableIncremental, which the in-process `breaking` runs too), the
// editor's overlays, fault injection (src/write/fs-ops.ts), fresh module instances. Each runs in a process of its own (vitest's default). A new file that does any of this
// belongs here: the other files share their worker process with the files before them, and
// test/support/shared-process-guard.ts fails a shared file that leaves the environment, the working
// directory, fake timers, a global, OpenTelemetry's globals or the --watch caches changed.
export const OWN_PROCESS = [
  'test/docs/run.test.ts',
  'test/e2e/client-trace.test.ts',
  'test/e2e/server-metrics.test.ts',
  'test/e2e/task-call-outcomes.test.ts',
  'test/e2e/telemetry.test.ts',
  'test/emit/http-binding.test.ts',
  'test/emit/typescript-on-demand.test.ts',
  'test/import/mcp-import.test.ts',
  'test/load/plain-env.test.ts',
  'test/lsp/check-memory.test.ts',
  'test/lsp/project-reads.test.ts',
  'test/parse/fast-value.test.ts',
  'test/runtime/discovery.test.ts',
  'test/runtime/fast-path.test.ts',
  'test/runtime/handler-errors.test.ts',
  'test/runtime/request-state.test.ts',
  'test/runtime/token-cache.test.ts',
  'test/runtime/wait-at-most.test.ts',
  'test/watch/incremental.test.ts',
  'test/write/crash-safety.test.ts',
];

// A new worker process per test file cost about 0.5 s of CPU in each of the 188 files (Node's start, vitest's
// worker, the test's imports of src/ again): the other files run one after another in a worker of
// project `unit-shared` (isolate: false), which imports src/ once.
const { globalSetup, ...perProject } = shared;
// The generator fuzzer's compiled servers (four modules for each of ~150 specs) load as Node loads them
// rather than through vitest's transform: about 5 s of CPU (test/robustness/generator-fuzz.test.ts).
const unit = { ...perProject, server: { deps: { external: [/\/\.tmp\/gen-fuzz\/js\//] } } };
const UNIT = 'test/**/*.test.ts';
// Interop (official SDK both ways, nginx) runs with `npm run test:interop`, the soak with `npm run soak`.
const NOT_UNIT = ['test/interop/**', 'test/soak/**', '**/node_modules/**'];

export default defineConfig({
  test: {
    // The root's global setup runs once, whichever files are picked; the projects do not repeat it.
    globalSetup,
    maxWorkers: shared.maxWorkers,
    projects: [
      { test: { ...unit, name: 'unit-shared', include: [UNIT], exclude: [...NOT_UNIT, ...OWN_PROCESS], isolate: false, setupFiles: ['test/support/shared-process-guard.ts'] } },
      { test: { ...unit, name: 'unit-own-process', include: OWN_PROCESS } },
    ],
  },
});
