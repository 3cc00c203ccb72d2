#!/usr/bin/env node
// The interop suite as vitest runs at the same time, the projects of vitest.interop.config.ts:
// `interop-cpu` (the files that keep both cores busy, one at a time), `interop` (the files that mostly
// wait, four at a time) and `interop-redis` (the files sharing the run's Redis topologies, one at a time)
// from the start; once `interop` and `interop-redis` are done, `interop-cpu-late` (heavy files that use
// about one core each, one at a time) beside `interop-cpu`, on the core the waiting files no longer use.
// One vitest run would finish one project before starting the next; run together, the waiting files use
// the cores the heavy ones leave idle, and at most two heavy files overlap, only after the waiting ones.
// Arguments (file filters, reporters) go to every run (an --outputFile=x.json becomes x.interop-cpu.json,
// x.interop.json, x.interop-redis.json and x.interop-cpu-late.json); each line of output names its run;
// the exit code is the first non-zero one.
// Usage: node scripts/test-interop.mjs [--install] [vitest arguments…]
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Written by test/support/global-setup.ts once generated/ is compiled into .tmp/compiled/ (or found compiled).
const compiled = join(root, '.tmp/compile-result.json');
// Written by the heavy run's global setup when that compile is there (a name of this run's own).
const ready = join(root, `.tmp/compile-ready-${process.pid}`);
const vitest = join(root, 'node_modules/vitest/vitest.mjs');
const args = process.argv.slice(2);
// `--install` (npm run test:interop): first `npm ci` in conformance/ and test/import-servers/, both at once.
const install = args[0] === '--install';
if (install) args.shift();

/** `command` with each line of its output prefixed by `[label]`; resolves to its exit code. */
function prefixed(label, command, argv, env = {}) {
  const child = spawn(command, argv, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const [from, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
    createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => to.write(`[${label}] ${line}\n`));
  }
  return new Promise((done) => child.once('exit', (code, signal) => done(code ?? (signal === null ? 1 : 128))));
}

function run(project, env) {
  const own = args.map((a) => a.replace(/^(--outputFile=.*?)(\.\w+)?$/, (_, path, ext = '') => `${path}.${project}${ext}`));
  return prefixed(project, process.execPath, [vitest, 'run', '--config', 'vitest.interop.config.ts', '--project', project, '--passWithNoTests', ...own], env);
}

if (install) {
  const installs = await Promise.all([
    prefixed('npm ci conformance', 'npm', ['ci', '--prefix', 'conformance', '--no-audit', '--no-fund']),
    prefixed('npm ci test/import-servers', 'npm', ['ci', '--prefix', 'test/import-servers', '--no-audit', '--no-fund', '--ignore-scripts']),
  ]);
  const failed = installs.find((c) => c !== 0);
  if (failed !== undefined) process.exit(failed);
}

// The heavy run compiles generated/ (its global setup; skipped when npm test's compile of the same inputs is
// there); the others start once that is done and use it.
rmSync(ready, { force: true });
const heavy = run('interop-cpu', { MCPGEN_COMPILE_READY: ready });
let heavyEnded = false;
void heavy.then(() => (heavyEnded = true));
while (!existsSync(ready) && !heavyEnded) await new Promise((r) => setTimeout(r, 200));
const reuse = existsSync(ready) && existsSync(compiled) ? { MCPGEN_COMPILED: compiled } : {};
rmSync(ready, { force: true });
const waiting = run('interop', reuse);
// The files sharing the run's Redis topologies, one at a time beside the others (a third run).
const redis = run('interop-redis', reuse);
// The heavy files' tail, once nothing waits on the cores any more (a fourth run).
const late = Promise.all([waiting, redis]).then(() => run('interop-cpu-late', reuse));
const codes = await Promise.all([heavy, waiting, redis, late]);
process.exit(codes.find((c) => c !== 0) ?? 0);
