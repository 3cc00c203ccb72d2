// Issue 30 item 3: rate limits declared in the spec (`rateLimit:` server-wide and per tool), generated into
// the definition and main.ts, compiled under the strict flags and served: over stdio a past-the-limit call is
// the JSON-RPC error 429 (with retryAfterSeconds and scope), over HTTP 429 with Retry-After; the environment
// overrides a declared limit; a server built in code without any limiter option still applies them.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateAndCompile } from '../support/generated-package.js';
import { rawCall } from '../support/raw-http.js';
import { ROOT, startScript } from '../support/servers.js';

const DIR = join(ROOT, '.tmp/spec-rate-limits');
const JS = join(DIR, 'js');

const SPEC = `mcpgen: 1
server: { name: limited, version: 1.0.0 }
rateLimit: 5/1m
tools:
  - name: ping
    rateLimit: 2/1m
    input: { type: object, additionalProperties: false }
  - name: echo
    input: { type: object, properties: { text: { type: string } }, required: [text], additionalProperties: false }
`;
const HANDLERS = `import type { LimitedHandlers } from './server.js';
export const handlers: LimitedHandlers = {
  ping: () => 'pong',
  echo: ({ text }) => text,
};
`;

beforeAll(async () => {
  const built = await generateAndCompile(DIR, 'limited', SPEC, { 'handlers.ts': HANDLERS });
  expect(built.diagnostics).toEqual([]);
  expect(built.compileErrors).toEqual([]);
}, 120_000);

async function httpCall(url: string, name: string, args: Record<string, unknown>, id: number): Promise<{ status: number; retryAfter: unknown; body: { result?: unknown; error?: { code: number; data?: unknown } } }> {
  const c = rawCall(url, 'tools/call', { name, arguments: args }, { id });
  const res = await c.response;
  await c.closed;
  return { status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body: JSON.parse(c.text()) };
}

describe('rate limits declared in the spec', () => {
  it('are emitted into the definition and passed by main.ts to the environment settings', () => {
    const definition = readFileSync(join(DIR, 'out/limited/definition.ts'), 'utf8').replace(/\s+/g, '');
    expect(definition).toContain('"rateLimits":{"server":{"points":5,"durationSeconds":60},"tools":{"ping":{"points":2,"durationSeconds":60}}}');
    expect(readFileSync(join(DIR, 'out/limited/main.ts'), 'utf8')).toContain('serverOptionsFromEnv("limited", process.env, definition.rateLimits)');
  });

  it('--print-config shows the declared limits under the environment\'s, and where they are counted', () => {
    const print = (env: Record<string, string>) => {
      const r = spawnSync(process.execPath, [join(JS, 'main.js'), '--print-config'], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, ...env } });
      expect(r.status).toBe(0);
      return (JSON.parse(r.stdout) as { rateLimits: unknown }).rateLimits;
    };
    expect(print({})).toEqual({ server: '5/60s', tools: { ping: '2/60s' }, countedIn: 'memory (this process only)' });
    expect(print({ MCPGEN_RATE_LIMIT_TOOLS: 'ping=3/1m,echo=9/1s', REDIS_URL: 'redis://127.0.0.1:1' })).toEqual({ server: '5/60s', tools: { ping: '3/60s', echo: '9/1s' }, countedIn: 'Redis (shared by every instance)' });
  });

  it('stdio: past a tool\'s limit the call is the JSON-RPC error 429, other tools go on until the server-wide limit', async () => {
    const client = new Client({ name: 'limits', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(JS, 'main.js')], stderr: 'ignore' }));
    try {
      for (let i = 0; i < 2; i++) expect((await client.callTool({ name: 'ping', arguments: {} })).content).toEqual([{ type: 'text', text: 'pong' }]);
      const refused = await client.callTool({ name: 'ping', arguments: {} }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ProtocolError);
      expect(refused).toMatchObject({ code: 429, data: { scope: 'tool', retryAfterSeconds: expect.any(Number) } });
      expect((refused as Error).message).toMatch(/Rate limit exceeded: retry after \d+ s/);
      // 3 counted server-wide so far (the refused one too); 2 more, then the server-wide limit.
      for (let i = 0; i < 2; i++) await client.callTool({ name: 'echo', arguments: { text: 'x' } });
      await expect(client.callTool({ name: 'echo', arguments: { text: 'x' } })).rejects.toMatchObject({ code: 429, data: { scope: 'server' } });
    } finally {
      await client.close();
    }
  });

  it('HTTP: 429 with Retry-After; MCPGEN_RATE_LIMIT_TOOLS overrides the declared limit', async () => {
    const declared = await startScript(join(JS, 'main.js'));
    const overridden = await startScript(join(JS, 'main.js'), [], { env: { MCPGEN_RATE_LIMIT_TOOLS: 'ping=3/1m' } });
    try {
      const statuses = async (url: string) => {
        const out: number[] = [];
        for (let i = 1; i <= 4; i++) out.push((await httpCall(url, 'ping', {}, i)).status);
        return out;
      };
      expect(await statuses(declared.url)).toEqual([200, 200, 429, 429]);
      const refused = await httpCall(declared.url, 'ping', {}, 9);
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(refused.body.error).toMatchObject({ code: 429, data: { scope: 'tool' } });
      expect(await statuses(overridden.url)).toEqual([200, 200, 200, 429]);
    } finally {
      await declared.stop();
      await overridden.stop();
    }
  });

  it('a server built in code with no limiter option applies the spec\'s limits', async () => {
    const { createLimitedServer } = (await import(join(JS, 'server.js'))) as { createLimitedServer: (h: object) => { listen(o: object): Promise<{ url: string; close(ms?: number): Promise<void> }> } };
    const { handlers } = (await import(join(JS, 'handlers.js'))) as { handlers: object };
    const running = await createLimitedServer(handlers).listen({ port: 0 });
    try {
      const statuses: number[] = [];
      for (let i = 1; i <= 3; i++) statuses.push((await httpCall(running.url, 'ping', {}, i)).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await running.close(500);
    }
  });
});
