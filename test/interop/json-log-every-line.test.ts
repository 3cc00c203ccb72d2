// Issue 46 defect 5: with MCPGEN_LOG_FORMAT=json every line the runtime writes on stderr is a JSON object
// (time, level, msg). Generated mains run through what makes them talk: a real redis-server up, killed and
// back (the bus, the task store and the rate limiter each say so), tasks, rate limits, an authorization
// server that cannot be reached, a shutdown, and refused settings and arguments. Every stderr line is
// parsed; task calls are successes in the access log.
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobsClient as JobsClientType } from '../../generated/jobs/client.js';
import { freePort, waitFor } from '../support/ports.js';
import { rawCall } from '../support/raw-http.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { compiledMain, importCompiled } from '../support/servers.js';

const { JobsClient } = await importCompiled<{ JobsClient: typeof JobsClientType }>('jobs', 'client.js');
type Line = Record<string, unknown>;
let redis: RedisServer | undefined;
afterAll(async () => {
  await redis?.kill();
});

/** A generated main over HTTP on a known port, MCPGEN_LOG_FORMAT=json; its stderr and exit. */
async function serve(pkg: string, env: Record<string, string>, args: readonly string[] = []) {
  const port = await freePort();
  const child = spawn(process.execPath, [compiledMain(pkg), '--http', '--port', String(port), ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, MCPGEN_LOG_FORMAT: 'json', ...env } });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stderr: () => stderr,
    exited,
    listening: () => waitFor(() => stderr.includes('"msg":"listening"'), 20_000),
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Every line parsed as a JSON object with time, level and msg (a line that is not fails the test, named). */
function parseEvery(stderr: string): Line[] {
  return stderr.split('\n').filter((l) => l !== '').map((l) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(l);
    } catch {
      throw new Error(`not a JSON line: ${l}`);
    }
    expect(parsed, l).toMatchObject({ time: expect.any(String), level: expect.stringMatching(/^(debug|info|warn|error)$/), msg: expect.any(String) });
    return parsed as Line;
  });
}

describe('MCPGEN_LOG_FORMAT=json: every stderr line is JSON', () => {
  it('the jobs server through Redis up, down and back, tasks and rate limits', async () => {
    redis = await startRedis();
    const server = await serve('jobs', { REDIS_URL: redis.url, MCPGEN_ACCESS_LOG: 'json', MCPGEN_RATE_LIMIT: '6/1m', MCPGEN_TASK_LEASE_MS: '1500' });
    await server.listening();
    // One Redis layer for every use (bus, task store, rate limiter): one line per state change.
    await waitFor(() => (server.stderr().match(/"state":"connected"/g) ?? []).length >= 1);
    const client = await JobsClient.connect({ url: server.url });
    try {
      const { task } = await client.startTask('render', { frames: 1, frameMs: 1 });
      await task!.result();
      for (let i = 0; i < 6; i++) {
        const c = rawCall(server.url, 'tools/list', {}, { id: `l${i}` });
        await c.response;
        await c.closed;
      }
      await redis.kill();
      await waitFor(() => server.stderr().includes('"state":"disconnected"'), 15_000);
      await redis.start();
      await waitFor(() => (server.stderr().match(/"state":"connected"/g) ?? []).length >= 2, 20_000);
    } finally {
      await client.close().catch(() => {});
      await server.stop();
    }
    const lines = parseEvery(server.stderr());
    const calls = lines.filter((l) => l.msg === 'mcp request' && l.method === 'tools/call');
    expect(calls.map((l) => [l.tool, l.outcome])).toEqual([['render', 'ok']]);
    expect(lines.some((l) => l.msg === 'mcp request' && l.error_code === 429)).toBe(true);
    expect(lines.filter((l) => l.state === 'disconnected').length).toBeGreaterThanOrEqual(1);
  }, 90_000);

  it('an authorization server that cannot be reached', async () => {
    const dead = await freePort();
    const issuer = `http://127.0.0.1:${dead}`;
    const server = await serve('secure-notes', { MCPGEN_AUTH_ISSUERS: issuer });
    await server.listening();
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const token = `${b64({ alg: 'RS256', typ: 'at+jwt', kid: 'k1' })}.${b64({ iss: issuer, sub: 'x', aud: 'y', exp: Math.floor(Date.now() / 1000) + 60 })}.${b64({ s: 1 })}`;
    const res = await fetch(server.url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(res.status).toBe(503);
    await waitFor(() => server.stderr().includes('unreachable'));
    await server.stop();
    const lines = parseEvery(server.stderr());
    expect(lines.find((l) => String(l.msg).includes('unreachable'))).toMatchObject({ level: 'warn', msg: expect.stringContaining(`authorization server ${issuer} unreachable`) });
  });

  it('refused settings and arguments are one JSON line too', async () => {
    const badRate = await serve('jobs', { MCPGEN_RATE_LIMIT_TOOLS: 'nosuch=5/1m' });
    expect(await badRate.exited).toBe(1);
    expect(parseEvery(badRate.stderr())).toEqual([expect.objectContaining({ level: 'error', msg: expect.stringContaining('nosuch') })]);
    const badArg = await serve('jobs', {}, ['--port', 'many']);
    expect(await badArg.exited).not.toBe(0);
    expect(parseEvery(badArg.stderr())).toEqual([expect.objectContaining({ level: 'error', msg: expect.stringContaining('--port') })]);
  });
});
