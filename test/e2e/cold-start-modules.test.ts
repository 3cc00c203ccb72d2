// What a generated server loads to start and answer its first tools/call. On Node 20 every ES module
// file costs start-up time (no compile cache), so the runtime ships bundled (dist/bundle) and loads
// what a definition may not use on first use: jose (authorization), the SDK's stdio entry, its skills
// extension. Timings are bench/cold-start.mjs's; this checks which files load, which does not vary.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/root.js';
import { compiledMain, startScript } from '../support/servers.js';

const HOOK = join(ROOT, 'test/support/module-log.mjs');
const logs: string[] = [];
const logFile = (name: string) => {
  const file = join(ROOT, `.tmp/module-log-${process.pid}-${name}.txt`);
  rmSync(file, { force: true });
  logs.push(file);
  return file;
};
afterAll(() => {
  for (const f of logs) rmSync(f, { force: true });
});

const loaded = (file: string) => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
const runtimeFiles = (urls: readonly string[]) => urls.filter((u) => u.includes('/packages/runtime/') || u.includes('/@mcpgen/runtime/'));
// OpenTelemetry (an optional peer) loads only with MCPGEN_TELEMETRY=otel: a plain server pays nothing for it.
const LAZY = [/\/node_modules\/jose\//, /\/@modelcontextprotocol\/server\/dist\/stdio\.mjs$/, /\/@modelcontextprotocol\/server\/dist\/ext\/skills\//, /\/@opentelemetry\//];

describe('cold start of a generated server (weather, no auth, no skills)', () => {
  it('over HTTP loads the runtime as its bundle, and neither jose, the stdio entry nor the skills extension', async () => {
    const log = logFile('http');
    const server = await startScript(compiledMain('weather'), [], { nodeFlags: ['--import', HOOK], env: { MODULE_LOG: log } });
    const client = new Client({ name: 'cold-start', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      expect((await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).structuredContent).toEqual({ sum: 3 });
    } finally {
      await client.close();
      await server.stop();
    }
    const urls = loaded(log);
    expect(urls.some((u) => u.endsWith('/main.js'))).toBe(true);
    const runtime = runtimeFiles(urls);
    expect(runtime.length, runtime.join('\n')).toBeGreaterThan(0);
    for (const u of runtime) expect(u).toMatch(/\/dist\/bundle\/[^/]+\.js$/);
    expect(runtime.length, runtime.join('\n')).toBeLessThanOrEqual(2);
    for (const lazy of LAZY) expect(urls.filter((u) => lazy.test(u))).toEqual([]);
  });

  it('over stdio loads the SDK stdio entry on start, still without jose or the skills extension', async () => {
    const log = logFile('stdio');
    const client = new Client({ name: 'cold-start', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', HOOK, compiledMain('weather')], env: { ...process.env, MODULE_LOG: log } as Record<string, string>, stderr: 'ignore' }));
    try {
      expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).structuredContent).toEqual({ sum: 5 });
    } finally {
      await client.close();
    }
    const urls = loaded(log);
    expect(urls.filter((u) => LAZY[1]!.test(u))).toHaveLength(1);
    for (const lazy of [LAZY[0]!, LAZY[2]!, LAZY[3]!]) expect(urls.filter((u) => lazy.test(u))).toEqual([]);
  });
});
