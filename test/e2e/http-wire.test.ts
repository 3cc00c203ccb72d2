// The Streamable HTTP transport rules, checked with raw HTTP against a generated server (sql: it has
// x-mcp-header arguments) started in-process on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlHandlers, createSqlServer as CreateSqlServer } from '../../generated/sql/server.js';
import type { createWeatherServer as CreateWeatherServer } from '../../generated/weather/server.js';
import { importCompiled } from '../support/servers.js';
import { schemaErrors } from '../support/wire.js';

const VERSION = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };

let url: string;
let weatherUrl: string;
const stops: (() => Promise<void>)[] = [];
let cancelled: Promise<string>;

beforeAll(async () => {
  const { createSqlServer } = await importCompiled<{ createSqlServer: typeof CreateSqlServer }>('sql', 'server.js');
  const { handlers } = await importCompiled<{ handlers: SqlHandlers }>('sql', 'handlers.js');
  let onCancel: (why: string) => void = () => {};
  cancelled = new Promise((r) => (onCancel = r));
  const sql = await createSqlServer({
    ...handlers,
    // A query of "SLEEP" waits until the client goes away, reporting progress first.
    async executeSql(args, ctx) {
      if (args.query !== 'SLEEP') return handlers.executeSql(args, ctx);
      await ctx.progress(1, 10, 'sleeping');
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      onCancel(String(ctx.signal.reason));
      return { columns: [], rows: [], rowCount: 0 };
    },
  }).listen({ port: 0, maxBodyBytes: 64 * 1024 });
  url = sql.url;
  stops.push(() => sql.close(1000));
  const { createWeatherServer } = await importCompiled<{ createWeatherServer: typeof CreateWeatherServer }>('weather', 'server.js');
  const { handlers: weather } = await importCompiled<{ handlers: Parameters<typeof CreateWeatherServer>[0] }>('weather', 'handlers.js');
  const w = await createWeatherServer(weather).listen({ port: 0, keepAliveTimeoutMs: 30_000 });
  weatherUrl = w.url;
  stops.push(() => w.close(1000));
});

afterAll(async () => {
  await Promise.all(stops.map((s) => s()));
});

interface Call {
  method?: string;
  params?: Record<string, unknown>;
  headers?: Record<string, string | undefined>;
  id?: number | null;
  body?: string;
  target?: string;
  httpMethod?: string;
}

async function post(call: Call): Promise<{ status: number; headers: Headers; json: any; text: string }> {
  const method = call.method ?? 'tools/call';
  const params: Record<string, unknown> = { ...call.params, _meta: { ...META, ...(call.params?._meta as object | undefined) } };
  const body = call.body ?? JSON.stringify({ jsonrpc: '2.0', ...(call.id === null ? {} : { id: call.id ?? 1 }), method, params });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
  };
  if (typeof params.name === 'string') headers['mcp-name'] = params.name;
  for (const [k, v] of Object.entries(call.headers ?? {})) {
    if (v === undefined) delete headers[k.toLowerCase()];
    else headers[k.toLowerCase()] = v;
  }
  const r = await fetch(call.target ?? url, { method: call.httpMethod ?? 'POST', headers, body: call.httpMethod === 'GET' || call.httpMethod === 'DELETE' ? null : body });
  const text = await r.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, headers: r.headers, json, text };
}

const sqlCall = (args: Record<string, unknown>, headers: Record<string, string | undefined> = {}) => post({ params: { name: 'execute_sql', arguments: args }, headers });
const b64 = (s: string) => `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;

function expectHeaderMismatch(r: { status: number; json: any }) {
  expect(r.status).toBe(400);
  expect(r.json.error.code).toBe(-32020);
  expect(schemaErrors('JSONRPCErrorResponse', r.json)).toEqual([]);
}

describe('Streamable HTTP rules on a generated server', () => {
  it('accepts a correct call with Mcp-Param-* headers', async () => {
    const r = await sqlCall({ region: 'eu-west1', query: 'SELECT 1', options: { timeoutSeconds: 5, dryRun: false } }, { 'Mcp-Param-Region': 'eu-west1', 'Mcp-Param-Timeout': '5', 'Mcp-Param-Dry-Run': 'false' });
    expect(r.status).toBe(200);
    expect(r.json.result.structuredContent.rowCount).toBe(1);
    expect(schemaErrors('CallToolResultResponse', r.json)).toEqual([]);
  });

  it('compares integer headers numerically', async () => {
    const r = await sqlCall({ region: 'eu-west1', query: 'SELECT 1', options: { timeoutSeconds: 5 } }, { 'Mcp-Param-Region': 'eu-west1', 'Mcp-Param-Timeout': '5.0' });
    expect(r.status).toBe(200);
  });

  it('rejects a missing Mcp-Param-* header', async () => {
    expectHeaderMismatch(await sqlCall({ region: 'eu-west1', query: 'SELECT 1' }));
  });

  it('rejects a mismatched Mcp-Param-* header', async () => {
    const r = await sqlCall({ region: 'eu-west1', query: 'SELECT 1' }, { 'Mcp-Param-Region': 'us-west1' });
    expectHeaderMismatch(r);
    expect(r.json.error.message).toContain("Mcp-Param-Region header value 'us-west1' does not match body value 'eu-west1'");
  });

  it('rejects an Mcp-Param-* header for an argument the body lacks', async () => {
    expectHeaderMismatch(await sqlCall({ region: 'eu-west1', query: 'SELECT 1' }, { 'Mcp-Param-Region': 'eu-west1', 'Mcp-Param-Timeout': '5' }));
  });

  it.each([
    ['non-ASCII', 'Zürich 世界'],
    ['leading space', '  padded'],
    ['trailing tab', 'tab\t'],
    ['newline', 'two\nlines'],
    ['a value that looks like the sentinel', '=?base64?SGk=?='],
  ])('decodes a base64 sentinel for %s', async (_label, region) => {
    const r = await post({ method: 'tools/call', params: { name: 'list_tables', arguments: { region } }, headers: { 'Mcp-Param-Region': b64(region) } });
    expect(r.status).toBe(200);
    expect(r.json.result.structuredContent).toEqual({ tables: [] });
  });

  it('rejects a malformed base64 sentinel', async () => {
    expectHeaderMismatch(await post({ params: { name: 'list_tables', arguments: { region: 'x' } }, headers: { 'Mcp-Param-Region': '=?base64?not base64!?=' } }));
  });

  it('rejects an Mcp-Name that does not match the body', async () => {
    const r = await post({ params: { name: 'list_tables', arguments: { region: 'x' } }, headers: { 'Mcp-Name': 'execute_sql', 'Mcp-Param-Region': 'x' } });
    expectHeaderMismatch(r);
  });

  it('rejects a missing Mcp-Method', async () => {
    expectHeaderMismatch(await post({ method: 'tools/list', headers: { 'Mcp-Method': undefined } }));
  });

  it('rejects an MCP-Protocol-Version header that differs from the body', async () => {
    expectHeaderMismatch(await post({ method: 'tools/list', headers: { 'MCP-Protocol-Version': '2025-11-25' } }));
  });

  it('answers an unsupported protocol version with -32022 and the supported list', async () => {
    const r = await post({ method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } }, headers: { 'MCP-Protocol-Version': '2099-01-01' } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe(-32022);
    expect(r.json.error.data.supported).toEqual(['2026-07-28']);
  });

  it('answers an unknown method with 404 and -32601', async () => {
    const r = await post({ method: 'nope/nothing' });
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe(-32601);
  });

  it('refuses a foreign Origin with 403', async () => {
    const r = await post({ method: 'tools/list', headers: { Origin: 'https://evil.example' } });
    expect(r.status).toBe(403);
  });

  it('accepts a localhost Origin', async () => {
    expect((await post({ method: 'tools/list', headers: { Origin: 'http://localhost:5173' } })).status).toBe(200);
  });

  it('answers GET and DELETE with 405', async () => {
    expect((await post({ httpMethod: 'GET' })).status).toBe(405);
    expect((await post({ httpMethod: 'DELETE' })).status).toBe(405);
  });

  it('accepts a notification with 202 and an empty body', async () => {
    const r = await post({ method: 'notifications/cancelled', params: { requestId: 99 }, id: null });
    expect(r.status).toBe(202);
    expect(r.text).toBe('');
  });

  it('refuses bodies over the limit with 413', async () => {
    const r = await post({ body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META, pad: 'x'.repeat(100_000) } }) });
    expect(r.status).toBe(413);
  });

  it('answers malformed JSON with 400 -32700 and batches with 400 -32600', async () => {
    const bad = await post({ body: '{"jsonrpc":' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe(-32700);
    const batch = await post({ body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }]) });
    expect(batch.status).toBe(400);
    expect(batch.json.error.code).toBe(-32600);
  });

  it('answers a request without the _meta envelope with 400 -32602', async () => {
    const r = await post({ body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) });
    expect(r.status).toBe(400);
    expect([-32602, -32022]).toContain(r.json.error.code);
  });

  it('keeps idle connections open as long as configured (30 s here), 65 s by default (above clients\' and balancers\' idle timeouts)', async () => {
    const discover = { method: 'server/discover', params: {} };
    expect((await post({ ...discover, target: weatherUrl })).headers.get('keep-alive')).toBe('timeout=30');
    expect((await post(discover)).headers.get('keep-alive')).toBe('timeout=65');
  });

  it('serves only the /mcp endpoint', async () => {
    expect((await post({ method: 'tools/list', target: url.replace('/mcp', '/other') })).status).toBe(404);
  });

  it('streams progress over SSE before the result, with X-Accel-Buffering: no', async () => {
    const r = await post({ target: weatherUrl, params: { name: 'get_forecast', arguments: { city: 'Oslo' }, _meta: { progressToken: 'p1' } } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/event-stream');
    expect(r.headers.get('x-accel-buffering')).toBe('no');
    const messages = r.text.split('\n').filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5)));
    expect(messages.map((m) => m.method ?? 'result')).toEqual(['notifications/progress', 'result']);
    expect(schemaErrors('ProgressNotification', messages[0])).toEqual([]);
    expect(messages[0].params).toEqual({ progressToken: 'p1', progress: 1, total: 2, message: 'looking up Oslo' });
  });

  it('cancels the handler when the client closes the SSE stream', async () => {
    const abort = new AbortController();
    const response = await fetch(url, {
      method: 'POST',
      signal: abort.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'execute_sql', 'mcp-param-region': 'eu-west1' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'execute_sql', arguments: { region: 'eu-west1', query: 'SLEEP' }, _meta: { ...META, progressToken: 1 } } }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    await reader.read(); // the progress event: the handler is running
    abort.abort();
    await expect(Promise.race([cancelled, new Promise((_, reject) => setTimeout(() => reject(new Error('handler was not cancelled')), 5000))])).resolves.toBeTypeOf('string');
  });
});
