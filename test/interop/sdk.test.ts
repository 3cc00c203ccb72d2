// The official SDK v2 both ways: its client against every generated example server (HTTP and stdio),
// and the generated client against a server written by hand on @modelcontextprotocol/server 2.4.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpServer, createMcpHandler, fromJsonSchema } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { SqlClient as SqlClientType } from '../../generated/sql/client.js';
import { compiledMain, importCompiled, startHttp } from '../support/servers.js';

type Handlers = Record<string, (...args: unknown[]) => unknown>;
interface Definition {
  tools: { definition: { name: string; outputSchema?: object }; method: string }[];
  resources: { definition: { uri: string; mimeType?: string }; method: string }[];
  resourceTemplates: { definition: { uriTemplate: string; name: string; mimeType?: string }; method: string }[];
  prompts: { definition: { name: string; description?: string }; method: string }[];
}

// One call per primitive of every example, with arguments its handlers accept.
const SAMPLES: Record<string, { tools: Record<string, object>; templates: Record<string, { uri: string; vars: object }>; prompts: Record<string, Record<string, string>> }> = {
  weather: { tools: { get_forecast: { city: 'Lima', days: 3 }, get_alerts: { state: 'CA' }, add: { a: 1.5, b: 2 } }, templates: {}, prompts: {} },
  sql: { tools: { execute_sql: { region: 'us-east1', query: 'SELECT 2' }, list_tables: { region: 'us-west1' } }, templates: {}, prompts: {} },
  files: {
    tools: { search_files: { text: 'util' } },
    templates: { project_file: { uri: 'file:///project/src/util.ts', vars: { path: 'src/util.ts' } }, git_log: { uri: 'git://project/dev/log', vars: { ref: 'dev' } } },
    prompts: {},
  },
  prompts: { tools: {}, templates: {}, prompts: { code_review: { code: 'a = b' }, summarize: { text: 'words' }, daily_standup: {} } },
};

const ctx = { signal: new AbortController().signal, requestId: 1, meta: {}, progress: async () => {}, elicit: {}, requestState: undefined };

/** What a handler's reply becomes on the wire, computed from the handler itself. */
function expectedContents(reply: unknown, uri: string, mimeType: string | undefined): unknown[] {
  const mt = mimeType ? { mimeType } : {};
  if (typeof reply === 'string') return [{ uri, ...mt, text: reply }];
  if (reply instanceof Uint8Array) return [{ uri, ...mt, blob: Buffer.from(reply).toString('base64') }];
  return Array.isArray(reply) ? reply : (reply as { contents: unknown[] }).contents;
}

describe.each(['http', 'stdio'] as const)('official client against every generated example over %s', (transport) => {
  it.each(Object.keys(SAMPLES))('%s: every tool, resource, template and prompt equals what its handler returns', async (pkg) => {
    const { definition } = await importCompiled<{ definition: Definition }>(pkg, 'definition.js');
    const { handlers } = await importCompiled<{ handlers: Handlers }>(pkg, 'handlers.js');
    const sample = SAMPLES[pkg]!;
    const client = new Client({ name: 'official', version: '2.4.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const server = transport === 'http' ? await startHttp(pkg) : undefined;
    await client.connect(server ? new StreamableHTTPClientTransport(new URL(server.url)) : new StdioClientTransport({ command: process.execPath, args: [compiledMain(pkg)], stderr: 'ignore' }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(definition.tools.map((t) => t.definition.name).sort());
      for (const tool of definition.tools) {
        const args = sample.tools[tool.definition.name]!;
        const want = await handlers[tool.method]!(structuredClone(args), ctx);
        const got = await client.callTool({ name: tool.definition.name, arguments: args as Record<string, unknown> });
        if (tool.definition.outputSchema) expect(got.structuredContent, tool.definition.name).toEqual(want);
        else expect(got.content, tool.definition.name).toEqual([{ type: 'text', text: want }]);
      }
      if (definition.resources.length + definition.resourceTemplates.length > 0) {
        expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(definition.resources.map((r) => r.definition.uri));
        for (const r of definition.resources) {
          const want = expectedContents(await handlers[r.method]!(ctx), r.definition.uri, r.definition.mimeType);
          expect((await client.readResource({ uri: r.definition.uri })).contents, r.definition.uri).toEqual(want);
        }
        for (const t of definition.resourceTemplates) {
          const { uri, vars } = sample.templates[t.definition.name]!;
          const want = expectedContents(await handlers[t.method]!(vars, ctx), uri, t.definition.mimeType);
          expect((await client.readResource({ uri })).contents, uri).toEqual(want);
        }
      }
      if (definition.prompts.length > 0) {
        expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(definition.prompts.map((p) => p.definition.name));
        for (const p of definition.prompts) {
          const args = sample.prompts[p.definition.name]!;
          const reply = await handlers[p.method]!(args, ctx);
          const messages = typeof reply === 'string' ? [{ role: 'user', content: { type: 'text', text: reply } }] : Array.isArray(reply) ? reply : (reply as { messages: unknown[] }).messages;
          expect((await client.getPrompt({ name: p.definition.name, arguments: args })).messages, p.definition.name).toEqual(messages);
        }
      }
    } finally {
      await client.close();
      await server?.stop();
    }
  });
});

describe('generated client against a hand-written SDK server', () => {
  it('calls every typed method; the SDK server accepts its Mcp-Param-* headers', async () => {
    const seenHeaders: (string | null)[] = [];
    const handler = createMcpHandler(() => {
      const server = new McpServer({ name: 'sql-by-hand', version: '1.0.0' });
      server.registerTool(
        'execute_sql',
        {
          description: 'Runs SQL',
          inputSchema: fromJsonSchema({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, query: { type: 'string' }, options: { type: 'object', properties: { timeoutSeconds: { type: 'integer', 'x-mcp-header': 'Timeout' }, dryRun: { type: 'boolean', 'x-mcp-header': 'Dry-Run' } } } }, required: ['region', 'query'] } as never),
          outputSchema: fromJsonSchema({ type: 'object', properties: { columns: { type: 'array' }, rows: { type: 'array' }, rowCount: { type: 'integer' } }, required: ['columns', 'rows', 'rowCount'] } as never),
        },
        async (args, extra) => {
          seenHeaders.push((extra as { http?: { req?: Request } }).http?.req?.headers.get('mcp-param-region') ?? null);
          const sc = { columns: ['q'], rows: [[String((args as { query: string }).query)]], rowCount: 1 };
          return { content: [{ type: 'text', text: JSON.stringify(sc) }], structuredContent: sc };
        },
      );
      server.registerTool(
        'list_tables',
        { inputSchema: fromJsonSchema({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } }, required: ['region'] } as never), outputSchema: fromJsonSchema({ type: 'object', properties: { tables: { type: 'array', items: { type: 'string' } } }, required: ['tables'] } as never) },
        async (args, extra) => {
          seenHeaders.push((extra as { http?: { req?: Request } }).http?.req?.headers.get('mcp-param-region') ?? null);
          return { content: [{ type: 'text', text: '{}' }], structuredContent: { tables: [`t-${String((args as { region: string }).region)}`] } };
        },
      );
      return server;
    }, { legacy: 'reject' });
    const http = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const response = await handler.fetch(new Request(`http://${req.headers.host}${req.url}`, { method: req.method!, headers, ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}) }));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const { SqlClient } = await importCompiled<{ SqlClient: typeof SqlClientType }>('sql', 'client.js');
    const client = await SqlClient.connect({ url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` });
    try {
      expect((await client.executeSql({ region: 'eu-west1', query: 'SELECT 1', options: { timeoutSeconds: 9, dryRun: true } })).structuredContent).toEqual({ columns: ['q'], rows: [['SELECT 1']], rowCount: 1 });
      expect((await client.listTables({ region: 'Zürich' })).structuredContent).toEqual({ tables: ['t-Zürich'] });
      expect(seenHeaders).toEqual(['eu-west1', `=?base64?${Buffer.from('Zürich').toString('base64')}?=`]);
    } finally {
      await client.close();
      await new Promise((r) => http.close(r));
    }
  });
});
