// The generated client's wire behaviour, and the official SDK client against a generated server.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilesClient } from '../../generated/files/client.js';
import type { createFilesServer as CreateFilesServer, FilesHandlers } from '../../generated/files/server.js';
import type { SqlClient as SqlClientType } from '../../generated/sql/client.js';
import type { definition as SqlDefinition } from '../../generated/sql/definition.js';
import type { dispatchSqlToolCalls as DispatchSql, openAiTools as OpenAiTools } from '../../generated/sql/openai.js';
import type { createSqlServer as CreateSqlServer, SqlHandlers } from '../../generated/sql/server.js';
import type { McpgenServer } from '../../packages/runtime/src/server/index.js';
import { importCompiled } from '../support/servers.js';
import { tappedFetch, WireLog } from '../support/wire.js';

let sqlUrl: string;
let SqlClient: typeof SqlClientType;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  const { createSqlServer } = await importCompiled<{ createSqlServer: typeof CreateSqlServer }>('sql', 'server.js');
  const { handlers } = await importCompiled<{ handlers: SqlHandlers }>('sql', 'handlers.js');
  const running = await createSqlServer(handlers).listen({ port: 0 });
  sqlUrl = running.url;
  stops.push(() => running.close(500));
  ({ SqlClient } = await importCompiled<{ SqlClient: typeof SqlClientType }>('sql', 'client.js'));
});

afterAll(async () => {
  await Promise.all(stops.map((s) => s()));
});

function sentHeaders(log: WireLog, headersLog: Record<string, string>[], method: string): Record<string, string>[] {
  return headersLog.filter((_, i) => (log.entries.filter((e) => e.direction === 'client→server')[i]?.message.method ?? '') === method);
}

describe('generated client', () => {
  it('sends Mcp-Name and Mcp-Param-* on the first call, base64 exactly where required', async () => {
    const log = new WireLog();
    const headers: Record<string, string>[] = [];
    const pending: Promise<void>[] = [];
    const tap = tappedFetch(log, pending);
    const client = await SqlClient.connect({
      url: sqlUrl,
      fetch: (input, init) => {
        headers.push(Object.fromEntries(new Headers(init?.headers).entries()));
        return tap(input, init);
      },
    });
    try {
      await client.listTables({ region: 'us-west1' });
      await client.listTables({ region: 'Zürich' });
      await client.listTables({ region: ' padded' });
      await client.listTables({ region: '=?base64?SGk=?=' });
      await client.executeSql({ region: 'eu-west1', query: 'SELECT 1', options: { timeoutSeconds: 30, dryRun: true } });
    } finally {
      await client.close();
    }
    const calls = sentHeaders(log, headers, 'tools/call');
    expect(calls.map((h) => h['mcp-param-region'])).toEqual(['us-west1', `=?base64?${Buffer.from('Zürich').toString('base64')}?=`, `=?base64?${Buffer.from(' padded').toString('base64')}?=`, `=?base64?${Buffer.from('=?base64?SGk=?=').toString('base64')}?=`, 'eu-west1']);
    expect(calls[4]).toMatchObject({ 'mcp-method': 'tools/call', 'mcp-name': 'execute_sql', 'mcp-param-timeout': '30', 'mcp-param-dry-run': 'true', 'mcp-protocol-version': '2026-07-28' });
    // No tools/list was needed before the first call: the client has the spec's definitions.
    const methods = log.methods('client→server');
    expect(methods.indexOf('tools/call')).toBeLessThan(methods.includes('tools/list') ? methods.indexOf('tools/list') : Infinity);
    for (const e of log.entries.filter((x) => x.direction === 'client→server' && x.message.id !== undefined)) {
      const meta = (e.message.params as { _meta: Record<string, unknown> })._meta;
      expect(meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
      expect(meta['io.modelcontextprotocol/clientCapabilities']).toBeTypeOf('object');
    }
    expect(log.problems()).toEqual([]);
  });

  it('refreshes tools/list and retries once on HeaderMismatch', async () => {
    // A server whose list_tables mirrors `region` as Mcp-Param-Zone, while the client was built for Region.
    const { definition } = await importCompiled<{ definition: typeof SqlDefinition }>('sql', 'definition.js');
    const { handlers } = await importCompiled<{ handlers: SqlHandlers }>('sql', 'handlers.js');
    const changed = structuredClone(definition) as any;
    const tool = changed.tools.find((t: any) => t.definition.name === 'list_tables');
    tool.definition.inputSchema.properties.region['x-mcp-header'] = 'Zone';
    tool.headers = [{ header: 'Zone', path: ['region'], type: 'string' }];
    const { createMcpgenServer } = await import('@mcpgen/runtime/server');
    const server: McpgenServer = createMcpgenServer(changed, handlers);
    const running = await server.listen({ port: 0 });
    const log = new WireLog();
    const client = await SqlClient.connect({ url: running.url, fetch: tappedFetch(log, []) });
    try {
      expect((await client.listTables({ region: 'us-east1' })).structuredContent).toEqual({ tables: ['customers', 'invoices'] });
    } finally {
      await client.close();
      await running.close(500);
    }
    const statuses = log.entries.filter((e) => e.direction === 'server→client').map((e) => (e.message.error as { code?: number } | undefined)?.code ?? 'ok');
    expect(statuses).toContain(-32020);
    expect(log.methods('client→server').filter((m) => m === 'tools/call')).toHaveLength(2);
    expect(log.methods('client→server')).toContain('tools/list');
  });

  it('delivers subscriptions/listen notifications as an async iterator', async () => {
    const { createFilesServer } = await importCompiled<{ createFilesServer: typeof CreateFilesServer }>('files', 'server.js');
    const { handlers } = await importCompiled<{ handlers: FilesHandlers }>('files', 'handlers.js');
    const { FilesClient: Files } = await importCompiled<{ FilesClient: typeof FilesClient }>('files', 'client.js');
    const running = await createFilesServer(handlers).listen({ port: 0 });
    const client = await Files.connect({ url: running.url });
    try {
      const sub = await client.listen({ resourcesListChanged: true, resourceSubscriptions: ['file:///project/README.md'] });
      expect(sub.honored).toMatchObject({ resourcesListChanged: true, resourceSubscriptions: ['file:///project/README.md'] });
      running.notify.resourcesChanged();
      running.notify.resourceUpdated('file:///project/README.md');
      const got: unknown[] = [];
      for await (const n of sub) {
        got.push(n);
        if (got.length === 2) break;
      }
      expect(got).toEqual([{ method: 'notifications/resources/list_changed' }, { method: 'notifications/resources/updated', uri: 'file:///project/README.md' }]);
      await sub.close();
    } finally {
      await client.close();
      await running.close(500);
    }
  });

  it('bridges OpenAI tool_calls to the client and back as role:"tool" messages', async () => {
    const { openAiTools, dispatchSqlToolCalls } = await importCompiled<{ openAiTools: typeof OpenAiTools; dispatchSqlToolCalls: typeof DispatchSql }>('sql', 'openai.js');
    expect(openAiTools.map((t) => t.function.name)).toEqual(['execute_sql', 'list_tables']);
    expect(JSON.stringify(openAiTools)).not.toContain('x-mcp-header');
    const client = await SqlClient.connect({ url: sqlUrl });
    try {
      const messages = await dispatchSqlToolCalls(client, [
        { id: 'c1', type: 'function', function: { name: 'list_tables', arguments: '{"region":"us-west1"}' } },
        { id: 'c2', type: 'function', function: { name: 'list_tables', arguments: '{not json' } },
        { id: 'c3', type: 'function', function: { name: 'drop_database', arguments: '{}' } },
        { id: 'c4', type: 'function', function: { name: 'list_tables', arguments: '{}' } },
      ]);
      expect(messages).toEqual([
        { role: 'tool', tool_call_id: 'c1', content: '{"tables":["customers","orders"]}' },
        { role: 'tool', tool_call_id: 'c2', content: '{"error":"arguments are not valid JSON"}' },
        { role: 'tool', tool_call_id: 'c3', content: '{"error":"unknown tool drop_database"}' },
        { role: 'tool', tool_call_id: 'c4', content: expect.stringContaining('Invalid arguments for tool list_tables') },
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('official SDK client (@modelcontextprotocol/client 2.4) against a generated server', () => {
  it('lists and calls the tools', async () => {
    const client = new Client({ name: 'official', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(sqlUrl)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['execute_sql', 'list_tables']);
      expect(tools[0]!.inputSchema.properties).toHaveProperty('region.x-mcp-header', 'Region');
      const result = await client.callTool({ name: 'list_tables', arguments: { region: 'eu-west1' } });
      expect(result.structuredContent).toEqual({ tables: ['kunden'] });
      const sql = await client.callTool({ name: 'execute_sql', arguments: { region: 'us-east1', query: 'select 2' } });
      expect(sql.structuredContent).toEqual({ columns: ['region', 'query'], rows: [['us-east1', 'select 2']], rowCount: 1 });
    } finally {
      await client.close();
    }
  });
});
