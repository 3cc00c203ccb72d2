// Issue 25 item 11: every deployment setting the generated main reads from its environment is checked at
// start — a bad value is one line on stderr and exit 1, never a server that starts and then answers -32603.
// Before, MCPGEN_REQUEST_STATE_TTL_SECONDS=abc (or 0) without keys started the server (the TTL was first
// used on an MRTR call), and REDIS_URL=http://… started it too.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { compiledMain } from '../support/servers.js';

/** Run the generated jobs main with `env`: what it printed and how it ended (status null: still running at the timeout). */
function runMain(env: Record<string, string>): { status: number | null; stderr: string } {
  const out = spawnSync(process.execPath, [compiledMain('jobs'), '--http', '--port', '0'], {
    env: { ...process.env, MCPGEN_REQUEST_STATE_KEYS: '', REDIS_URL: '', ...env },
    encoding: 'utf8',
    timeout: 10_000,
    killSignal: 'SIGKILL',
  });
  return { status: out.status, stderr: out.stderr };
}

describe('configuration checked at start (generated main)', () => {
  it.each([
    [{ MCPGEN_REQUEST_STATE_TTL_SECONDS: 'abc' }, /^mcpgen: MCPGEN_REQUEST_STATE_TTL_SECONDS must be a positive whole number of seconds, not "abc"$/],
    [{ MCPGEN_REQUEST_STATE_TTL_SECONDS: '0' }, /^mcpgen: MCPGEN_REQUEST_STATE_TTL_SECONDS must be .*not "0"$/],
    [{ MCPGEN_REQUEST_STATE_TTL_SECONDS: '1.5' }, /^mcpgen: MCPGEN_REQUEST_STATE_TTL_SECONDS must be .*not "1.5"$/],
    [{ REDIS_URL: 'http://user:secret@127.0.0.1:6379' }, /^mcpgen: REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
  ])('%o: one line on stderr, exit 1', (env, line) => {
    const { status, stderr } = runMain(env);
    expect(status).toBe(1);
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
    expect(stderr).not.toContain('secret');
  });
});
