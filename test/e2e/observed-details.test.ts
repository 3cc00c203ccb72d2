// Issue 46 defect 8: over stdio a 2026-07-28 client's request carries its protocol version in `_meta` (the
// SDK lifts it into ctx.mcpReq.envelope), so the server span has mcp.protocol.version as over HTTP; and a
// handler result that fails its output schema is reported as the result that is wrong, not "arguments".
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/root.js';
import { waitFor } from '../support/ports.js';
import { importCompiled } from '../support/servers.js';

type Handlers = Record<string, (...args: never[]) => unknown>;

describe('the stdio server span of a 2026-07-28 client', () => {
  it('has mcp.protocol.version from the request _meta', async () => {
    const file = join(ROOT, `.tmp/otel-spans-${process.pid}-stdio-version.jsonl`);
    rmSync(file, { force: true });
    const client = new Client({ name: 'otel-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(ROOT, 'test/support/otel-server.mjs')], env: { ...process.env, MCPGEN_TELEMETRY: 'otel', OTEL_SPANS_FILE: file } as Record<string, string>, stderr: 'ignore' }));
    let spans: { name: string; attributes: Record<string, unknown> }[] = [];
    try {
      await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
      await client.listTools();
      const read = () => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as (typeof spans)[number]);
      await waitFor(() => read().some((s) => s.name === 'tools/list'));
      spans = read();
    } finally {
      await client.close();
      rmSync(file, { force: true });
    }
    for (const name of ['tools/call add', 'tools/list']) {
      expect(spans.find((s) => s.name === name)?.attributes, name).toMatchObject({ 'mcp.protocol.version': '2026-07-28', 'network.transport': 'pipe' });
    }
  });
});

describe('a result that fails its output schema', () => {
  it('is reported as the result, not the arguments', async () => {
    const { createWeatherServer } = await importCompiled<{ createWeatherServer: (h: Handlers, o: object) => { listen(o: object): Promise<{ url: string; close(ms?: number): Promise<void> }> } }>('weather', 'server.js');
    const { handlers } = await importCompiled<{ handlers: Handlers }>('weather', 'handlers.js');
    const reported: string[] = [];
    const running = await createWeatherServer({ ...handlers, add: () => ({ total: 3 }) } as Handlers, { onHandlerError: (e: Error, where: string) => reported.push(`${where}: ${e.message}`) }).listen({ port: 0 });
    const client = new Client({ name: 't', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
      expect((await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).isError).toBe(true);
    } finally {
      await client.close();
      await running.close(500);
    }
    expect(reported).toEqual([expect.stringMatching(/^tool add: structuredContent does not match the output schema: result must have required property '?sum'?/)]);
    expect(reported[0]).not.toContain('arguments');
  });
});
