import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, WebStandardStreamableHTTPServerTransport, fromJsonSchema } from '@modelcontextprotocol/server';
import type { SqlClient as SqlClientType } from '../../generated/sql/client.js';
import { describe, expect, it } from 'vitest';
import type { definition as WeatherDefinition } from '../../generated/weather/definition.js';
import type { WeatherHandlers } from '../../generated/weather/server.js';
import { createMcpgenServer } from '../../packages/runtime/src/server/index.js';
import { ROOT, tempDir } from '../support/root.js';
import { importCompiled } from '../support/servers.js';

describe('protocol.legacy', () => {
  it('serves a 2025-11-25 client (initialize handshake) when the spec asks for it, and refuses it otherwise', async () => {
    const { definition } = await importCompiled<{ definition: typeof WeatherDefinition }>('weather', 'definition.js');
    const { handlers } = await importCompiled<{ handlers: WeatherHandlers }>('weather', 'handlers.js');
    for (const legacy of [true, false]) {
      const running = await createMcpgenServer(definition, handlers, { legacy }).listen({ port: 0 });
      const client = new Client({ name: 'old', version: '1' }); // default negotiation: the 2025 initialize sequence
      try {
        if (legacy) {
          await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
          const r = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
          expect(r.structuredContent).toEqual({ sum: 3 });
        } else {
          await expect(client.connect(new StreamableHTTPClientTransport(new URL(running.url)))).rejects.toThrow();
        }
      } finally {
        await client.close().catch(() => {});
        await running.close(500);
      }
    }
  });
});

describe('generated client era negotiation', () => {
  it('falls back to the 2025-11-25 initialize handshake only for a server that is not modern', async () => {
    // A 2025-only server: the SDK's legacy streamable HTTP transport, stateless.
    const http = createServer(async (req, res) => {
      const server = new McpServer({ name: 'old', version: '1' });
      server.registerTool('list_tables', { inputSchema: fromJsonSchema({ type: 'object', properties: { region: { type: 'string' } } } as never) }, async () => ({ content: [{ type: 'text', text: '{}' }], structuredContent: { tables: ['legacy'] } }));
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const r = await transport.handleRequest(new Request(`http://127.0.0.1${req.url}`, { method: req.method!, headers, ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}) }));
      res.writeHead(r.status, Object.fromEntries(r.headers));
      res.end(Buffer.from(await r.arrayBuffer()));
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const { SqlClient } = await importCompiled<{ SqlClient: typeof SqlClientType }>('sql', 'client.js');
    const methods: (string | undefined)[] = [];
    const spy = (input: string | URL | Request, init?: RequestInit) => {
      if (typeof init?.body === 'string') methods.push((JSON.parse(init.body) as { method?: string }).method);
      return fetch(input, init);
    };
    try {
      const legacy = await SqlClient.connect({ url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, fetch: spy as typeof fetch });
      expect((await legacy.listTables({ region: 'x' })).structuredContent).toEqual({ tables: ['legacy'] });
      await legacy.close();
      expect(methods.slice(0, 3)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    } finally {
      await new Promise((r) => http.close(r));
    }
    // Against a modern server the probe answers, and no initialize is ever sent.
    const { definition } = await importCompiled<{ definition: typeof WeatherDefinition }>('weather', 'definition.js');
    const { handlers } = await importCompiled<{ handlers: WeatherHandlers }>('weather', 'handlers.js');
    const running = await createMcpgenServer(definition, handlers).listen({ port: 0 });
    methods.length = 0;
    try {
      const modern = await SqlClient.connect({ url: running.url, fetch: spy as typeof fetch });
      await modern.close();
      expect(methods).toEqual(['server/discover']);
    } finally {
      await running.close(500);
    }
  });
});

describe('mcpgen generate --watch', () => {
  it('regenerates when a spec changes', async () => {
    const dir = tempDir();
    const spec = join(dir, 'specs/w.yaml');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'specs'));
    writeFileSync(spec, 'mcpgen: 1\nserver: { name: w, version: "1" }\ntools:\n  - name: first\n');
    const child = spawn(process.execPath, [join(ROOT, 'bin/mcpgen.js'), 'generate', 'specs/w.yaml', '--out', 'out', '--watch'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const until = async (ok: () => boolean, what: string) => {
      for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 100));
      if (!ok()) throw new Error(`${what} did not happen: ${stderr}`);
    };
    try {
      await until(() => stderr.includes('watching'), 'watch start');
      expect(existsSync(join(dir, 'out/w/server.ts'))).toBe(true);
      writeFileSync(spec, 'mcpgen: 1\nserver: { name: w, version: "1" }\ntools:\n  - name: second\n');
      await until(() => readFileSync(join(dir, 'out/w/server.ts'), 'utf8').includes('second('), 'regeneration');
    } finally {
      child.kill('SIGINT');
    }
  });
});
