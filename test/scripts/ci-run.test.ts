// .ci/run must fail when README's test command fails, at whichever of its three steps. Bash's `set -e` does
// not stop at a failure inside an && list (only at its last command): a failed `npm test` once went on to
// the other Nodes' runs, skipping the interop suite, and the run could end with exit 0.
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../support/root.js';

/** .ci/run with an `npm` that records its arguments and fails the one step named; what it ran, its exit code. */
function ciRunWithFailing(step: string): { calls: string[]; status: number | null } {
  const dir = tempDir('mcpgen-ci-run-');
  const log = join(dir, 'calls');
  writeFileSync(join(dir, 'npm'), `#!/bin/sh\necho "$*" >> '${log}'\n[ "$*" = '${step}' ] && exit 3\nexit 0\n`);
  chmodSync(join(dir, 'npm'), 0o755);
  const r = spawnSync('bash', [join(ROOT, '.ci/run')], { env: { ...process.env, PATH: `${dir}:${process.env.PATH ?? ''}` }, encoding: 'utf8' });
  let calls: string[] = [];
  try {
    calls = readFileSync(log, 'utf8').trim().split('\n');
  } catch {}
  return { calls, status: r.status };
}

describe('.ci/run', () => {
  for (const [step, before] of [['ci', []], ['test', ['ci']], ['run test:interop', ['ci', 'test']]] as const) {
    it(`stops with the failing step's exit code when \`npm ${step}\` of README's command fails`, () => {
      const { calls, status } = ciRunWithFailing(step);
      expect(status).toBe(3);
      // First the pinned Nodes (README's command runs on their Node 24), then README's command up to the failing step.
      expect(calls).toEqual(['ci --prefix .ci/nodes --no-audit --no-fund', ...before, step]);
    });
  }
});
