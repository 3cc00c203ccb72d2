// Server runtime behaviour through the Web-standard fetch face (no sockets): validation, errors,
// timeouts, output checks, pagination, cache hints, Host checks.
import { describe, expect, it } from 'vitest';
import type { definition as WeatherDefinition } from '../../generated/weather/definition.js';
import { createMcpgenServer, toolError } from '../../packages/runtime/src/server/index.js';
import { importCompiled } from '../support/servers.js';
import { schemaErrors } from '../support/wire.js';
import { mcpRequest } from '../support/mcp-request.js';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const { definition } = await importCompiled<{ definition: typeof WeatherDefinition }>('weather', 'definition.js');

function rpc(handler: { fetch: (r: Request) => Promise<Response> }, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return handler.fetch(mcpRequest(method, params, { headers })).then(async (r) => ({ status: r.status, json: JSON.parse(await r.text()) }));
}

const good = {
  getForecast: () => ({ city: 'x', temperature: 1, conditions: 'sunny' as const }),
  getAlerts: () => ({ alerts: [] }),
  add: ({ a, b }: { a: number; b: number }) => ({ sum: a + b }),
};

describe('tool calls', () => {
  it('turns a throwing handler into an isError result, not a dead process', async () => {
    const server = createMcpgenServer(definition, { ...good, add: () => { throw new Error('disk on fire'); } }, { onHandlerError: () => {} });
    const r = await rpc(server.http(), 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } });
    expect(r.json.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Tool add failed' }] });
    expect(schemaErrors('CallToolResultResponse', r.json)).toEqual([]);
  });

  it('checks structuredContent against the output schema', async () => {
    const errors: unknown[] = [];
    const server = createMcpgenServer(definition, { ...good, add: () => ({ sum: 'three' }) as never }, { onHandlerError: (e) => errors.push(e) });
    const r = await rpc(server.http(), 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } });
    expect(r.json.result.isError).toBe(true);
    expect(r.json.result.content[0].text).toBe('Tool add produced output that does not match its output schema');
    expect(String(errors[0])).toContain('must be number');
  });

  it('bounds a handler that never answers by the configured timeout', async () => {
    const server = createMcpgenServer(definition, { ...good, add: () => new Promise(() => {}) }, { toolTimeoutMs: 50 });
    const r = await rpc(server.http(), 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } });
    expect(r.json.result).toMatchObject({ isError: true, content: [{ text: 'Tool add timed out after 50 ms' }] });
  });

  it('passes a toolError() reply through with isError', async () => {
    const server = createMcpgenServer(definition, { ...good, add: () => toolError('numbers too large') });
    const r = await rpc(server.http(), 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } });
    expect(r.json.result).toMatchObject({ isError: true, content: [{ text: 'numbers too large' }] });
  });

  it('answers an unknown tool with -32602', async () => {
    const r = await rpc(createMcpgenServer(definition, good).http(), 'tools/call', { name: 'nope', arguments: {} });
    expect(r.json.error.code).toBe(-32602);
  });
});

describe('lists', () => {
  it('paginates with opaque cursors and rejects bad ones', async () => {
    const handler = createMcpgenServer(definition, good, { pageSize: 2 }).http();
    const first = await rpc(handler, 'tools/list');
    expect(first.json.result.tools.map((t: { name: string }) => t.name)).toEqual(['get_forecast', 'get_alerts']);
    expect(first.json.result.nextCursor).toBeTypeOf('string');
    const second = await rpc(handler, 'tools/list', { cursor: first.json.result.nextCursor });
    expect(second.json.result.tools.map((t: { name: string }) => t.name)).toEqual(['add']);
    expect(second.json.result.nextCursor).toBeUndefined();
    expect((await rpc(handler, 'tools/list', { cursor: 'garbage' })).json.error.code).toBe(-32602);
    for (const r of [first, second]) expect(schemaErrors('ListToolsResultResponse', r.json)).toEqual([]);
  });

  it('sends the spec cache hints on list results and server/discover', async () => {
    const handler = createMcpgenServer(definition, good).http();
    const list = await rpc(handler, 'tools/list');
    expect(list.json.result).toMatchObject({ ttlMs: 60000, cacheScope: 'public' });
    const discover = await rpc(handler, 'server/discover');
    expect(discover.json.result).toMatchObject({ ttlMs: 60000, cacheScope: 'public', supportedVersions: ['2026-07-28'], instructions: definition.instructions });
    expect(schemaErrors('DiscoverResultResponse', discover.json)).toEqual([]);
  });

  it('sends tool definitions byte-for-byte as the spec declares them', async () => {
    const list = await rpc(createMcpgenServer(definition, good).http(), 'tools/list');
    expect(list.json.result.tools).toEqual(definition.tools.map((t) => t.definition));
  });
});

describe('Host validation (DNS rebinding)', () => {
  it('refuses a foreign Host and accepts localhost', async () => {
    const handler = createMcpgenServer(definition, good).http();
    const foreign = await handler.fetch(new Request('http://evil.example/mcp', { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' }, body: '{}' }));
    expect(foreign.status).toBeGreaterThanOrEqual(400);
    expect(foreign.status).toBeLessThan(500);
    expect((await rpc(handler, 'tools/list')).status).toBe(200);
  });
});

describe('MRTR', () => {
  it('asks for input with a requestState and reads the answer and the echoed state on the retry', async () => {
    const { definition: sql } = await importCompiled<{ definition: Parameters<typeof createMcpgenServer>[0] }>('sql', 'definition.js');
    const seen: unknown[] = [];
    const handler = createMcpgenServer(sql, {
      executeSql: (_args: unknown, ctx: { elicit: { confirm: { response: unknown; ask: (o: object) => unknown } }; requestState: string | undefined }) => {
        seen.push({ response: ctx.elicit.confirm.response, state: ctx.requestState });
        return ctx.elicit.confirm.response === undefined ? ctx.elicit.confirm.ask({ requestState: 'state-1', message: 'Sure?' }) : { columns: [], rows: [], rowCount: 0 };
      },
      listTables: () => ({ tables: [] }),
    }).http();
    const headers = { 'mcp-param-region': 'eu-west1' };
    const undeclared = await rpc(handler, 'tools/call', { name: 'execute_sql', arguments: { region: 'eu-west1', query: 'DELETE' } }, headers);
    expect(undeclared.status).toBe(400);
    expect(undeclared.json.error.code).toBe(-32021); // MR4/M3: the client did not declare elicitation
    const args = { name: 'execute_sql', arguments: { region: 'eu-west1', query: 'DELETE' }, _meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } };
    seen.length = 0;
    const first = await rpc(handler, 'tools/call', args, headers);
    expect(first.json.result).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create', params: { mode: 'form', message: 'Sure?' } } } });
    // The handler's state leaves the server sealed (request-state.test.ts covers tampering and rotation).
    expect(first.json.result.requestState).toMatch(/^m1\.local\./);
    expect(schemaErrors('CallToolResultResponse', first.json)).toEqual([]);
    const retry = await rpc(handler, 'tools/call', { ...args, requestState: first.json.result.requestState, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } }, headers);
    expect(retry.json.result.structuredContent).toEqual({ columns: [], rows: [], rowCount: 0 });
    expect(seen).toEqual([{ response: undefined, state: undefined }, { response: { action: 'accept', content: { confirm: true } }, state: 'state-1' }]);
  });
});

describe('resources, prompts and listen streams', () => {
  it('turns a throwing resource or prompt handler into a JSON-RPC -32603 error', async () => {
    const { definition: files } = await importCompiled<{ definition: Parameters<typeof createMcpgenServer>[0] }>('files', 'definition.js');
    const { handlers } = await importCompiled<{ handlers: Record<string, unknown> }>('files', 'handlers.js');
    const handler = createMcpgenServer(files, { ...handlers, readReadme: () => { throw new Error('disk gone'); } }, { onHandlerError: () => {} }).http();
    const r = await rpc(handler, 'resources/read', { uri: 'file:///project/README.md' }, { 'mcp-name': 'file:///project/README.md' });
    expect(r.json.error).toMatchObject({ code: -32603, message: 'Reading file:///project/README.md failed' });
    expect(JSON.stringify(r.json)).not.toContain('disk gone'); // internals stay in the server log
  });

  it('sends SSE keep-alive comments on a subscriptions/listen stream', async () => {
    const { definition: files } = await importCompiled<{ definition: Parameters<typeof createMcpgenServer>[0] }>('files', 'definition.js');
    const handler = createMcpgenServer(files, {}).http({ keepAliveMs: 50 });
    const response = await handler.fetch(new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'listen-1', method: 'subscriptions/listen', params: { notifications: { resourcesListChanged: true }, _meta: META } }),
    }));
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    let text = '';
    const deadline = Date.now() + 5000;
    while (!/^:/m.test(text) && Date.now() < deadline) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(text).toContain('"notifications":{"resourcesListChanged":true}');
    expect(text).toMatch(/^:/m);
  });
});
