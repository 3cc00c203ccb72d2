// Issue 30 item 3: rate limits per caller, server-wide and per tool (rate-limiter-flexible), from the entry
// point's environment. Over real HTTP (both the fast path and the SDK path): 429 with Retry-After and the
// JSON-RPC error 429; over stdio the JSON-RPC error; wrong values refused at start with one line and exit 1.
// Across instances sharing a real redis-server, and a Redis outage: test/interop/rate-limits-nginx.test.ts (the
// interop suite installs redis-server; npm test needs no Debian package).
import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { rateLimitsFromEnv } from '../../packages/runtime/src/server/entry/env-options.js';
import { rawCall } from '../support/raw-http.js';
import { compiledMain, startScript } from '../support/servers.js';

/** tools/call over raw HTTP (the fast path serves it once the envelope is known): status, Retry-After, body. */
async function call(url: string, name: string, args: Record<string, unknown>, id: string | number = 1): Promise<{ status: number; retryAfter: string | undefined; body: { result?: unknown; error?: { code: number; message: string; data?: { retryAfterSeconds: number; scope: string } } } }> {
  const c = rawCall(url, 'tools/call', { name, arguments: args }, { id });
  const res = await c.response;
  await c.closed;
  return { status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined, body: JSON.parse(c.text()) };
}

describe('rate limit settings', () => {
  it('reads MCPGEN_RATE_LIMIT and MCPGEN_RATE_LIMIT_TOOLS, and refuses wrong values with their one line', () => {
    expect(rateLimitsFromEnv({})).toBeUndefined();
    expect(rateLimitsFromEnv({ MCPGEN_RATE_LIMIT: '100/1m', MCPGEN_RATE_LIMIT_TOOLS: 'add=5/1s, get_forecast=10/60' })).toEqual({
      server: { points: 100, durationSeconds: 60 },
      tools: { add: { points: 5, durationSeconds: 1 }, get_forecast: { points: 10, durationSeconds: 60 } },
    });
    const table: [Record<string, string>, string][] = [
      [{ MCPGEN_RATE_LIMIT: '100' }, 'MCPGEN_RATE_LIMIT: "100" is not a rate (requests/duration, e.g. 100/60, 100/1m; 1 s to 24 h)'],
      [{ MCPGEN_RATE_LIMIT: '0/60' }, 'MCPGEN_RATE_LIMIT: "0/60" is not a rate (requests/duration, e.g. 100/60, 100/1m; 1 s to 24 h)'],
      [{ MCPGEN_RATE_LIMIT: '10/2d' }, 'MCPGEN_RATE_LIMIT: "10/2d" is not a rate (requests/duration, e.g. 100/60, 100/1m; 1 s to 24 h)'],
      [{ MCPGEN_RATE_LIMIT_TOOLS: 'add' }, 'MCPGEN_RATE_LIMIT_TOOLS: "add" is not tool=rate'],
      [{ MCPGEN_RATE_LIMIT_TOOLS: 'add=fast' }, 'MCPGEN_RATE_LIMIT_TOOLS (add): "fast" is not a rate (requests/duration, e.g. 100/60, 100/1m; 1 s to 24 h)'],
    ];
    for (const [env, message] of table) expect(() => rateLimitsFromEnv(env)).toThrow(message);
  });

  it('main.js: a wrong rate or a limit for a tool the server lacks is one line and exit 1', async () => {
    await expect(startScript(compiledMain('weather'), [], { env: { MCPGEN_RATE_LIMIT: '10/0' } })).rejects.toThrow(/exited with 1: mcpgen: MCPGEN_RATE_LIMIT: "10\/0" is not a rate .*\n$/);
    await expect(startScript(compiledMain('weather'), [], { env: { MCPGEN_RATE_LIMIT_TOOLS: 'addd=1/60' } })).rejects.toThrow(/exited with 1: mcpgen: MCPGEN_RATE_LIMIT_TOOLS: rate limit for unknown tool "addd" \(the server's tools: get_forecast, get_alerts, add\)\n$/);
  });
});

describe('rate limits over real HTTP and stdio', () => {
  it('HTTP: past a tool\'s limit tools/call gets 429, Retry-After and the JSON-RPC error 429; other tools go on; the server-wide limit counts every request', async () => {
    const server = await startScript(compiledMain('weather'), [], { env: { MCPGEN_RATE_LIMIT_TOOLS: 'add=3/60', MCPGEN_RATE_LIMIT: '6/60' } });
    try {
      // The first call goes through the SDK path (the envelope is new), the next ones through the fast path.
      for (let i = 0; i < 3; i++) expect((await call(server.url, 'add', { a: i, b: 1 }, i + 1)).body.result).toMatchObject({ structuredContent: { sum: i + 1 } });
      const refused = await call(server.url, 'add', { a: 1, b: 1 }, 'r1');
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
      expect(refused.body).toMatchObject({ jsonrpc: '2.0', id: 'r1', error: { code: 429, message: `Rate limit exceeded: retry after ${refused.retryAfter} s`, data: { scope: 'tool' } } });
      // Another tool has no limit of its own: only the server-wide one (6, of which 4 are spent).
      expect((await call(server.url, 'get_alerts', { state: 'CA' }, 5)).status).toBe(200);
      expect((await call(server.url, 'get_alerts', { state: 'CA' }, 6)).status).toBe(200);
      const wide = await call(server.url, 'get_alerts', { state: 'CA' }, 7);
      expect(wide.status).toBe(429);
      expect(wide.body.error?.data?.scope).toBe('server');
      // Probes are never limited.
      expect((await fetch(new URL('/healthz', server.url))).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('stdio: past the limit the call is answered with the JSON-RPC error 429', async () => {
    const client = new Client({ name: 'rl-test', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [compiledMain('weather')], env: { ...process.env, MCPGEN_RATE_LIMIT_TOOLS: 'add=2/60' } as Record<string, string>, stderr: 'ignore' }));
    try {
      await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
      await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
      const error = await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(429);
      expect((error as ProtocolError).message).toMatch(/Rate limit exceeded: retry after \d+ s/);
      expect((await client.callTool({ name: 'get_alerts', arguments: { state: 'CA' } })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});
