// Issue 46 defect 7: `main.js --print-config` refuses what serving refuses, with the same message (and
// the variable's name in it): a limit for a tool the server lacks, a wrong telemetry or access-log value,
// a lease that is not a number… Each row runs the generated main twice, printing and serving.
import { describe, expect, it } from 'vitest';
import { runToExit } from '../support/servers.js';

/** The message without the program's prefix (`mcpgen: ` when serving, `main.js: ` when printing). */
const message = (stderr: string) => stderr.trim().replace(/^[\w.-]+: /, '');

const ROWS: readonly [pkg: string, env: Record<string, string>, expected: RegExp][] = [
  ['jobs', { MCPGEN_RATE_LIMIT_TOOLS: 'nosuch=5/1m' }, /^MCPGEN_RATE_LIMIT_TOOLS: rate limit for unknown tool "nosuch" \(the server's tools: render, /],
  ['weather', { MCPGEN_TELEMETRY: 'yes' }, /^MCPGEN_TELEMETRY must be otel or off, got "yes"$/],
  ['weather', { MCPGEN_ACCESS_LOG: 'text' }, /^MCPGEN_ACCESS_LOG must be json or off/],
  ['weather', { MCPGEN_LOG_LEVEL: 'loud' }, /^MCPGEN_LOG_LEVEL must be/],
  ['jobs', { MCPGEN_TASK_LEASE_MS: 'abc' }, /^MCPGEN_TASK_LEASE_MS must be a positive whole number/],
  ['weather', { REDIS_URL: 'http://cache:6379' }, /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
  ['weather', { MCPGEN_REQUEST_STATE_TTL_SECONDS: '0' }, /^MCPGEN_REQUEST_STATE_TTL_SECONDS must be a positive whole number/],
];

describe('--print-config refuses what serving refuses', () => {
  it.each(ROWS)('%s with %j', async (pkg, env, expected) => {
    const serving = await runToExit(pkg, ['--http', '--port', '0'], env);
    const printing = await runToExit(pkg, ['--http', '--port', '0', '--print-config'], env);
    expect([serving.code, message(serving.stderr)]).toEqual([1, expect.stringMatching(expected)]);
    expect([printing.code, message(printing.stderr), printing.stdout]).toEqual([1, message(serving.stderr), '']);
  });
});
