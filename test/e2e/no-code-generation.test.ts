// Generated servers never generate code at run time (no `eval`, no `new Function`): run under
// `node --disallow-code-generation-from-strings`, where either throws, every validation path still
// answers — input arguments (valid and refused), output schemas, elicitation answers (accepted and
// refused) — as do lists, resources and prompts. This is what lets the fetch handler run on workerd.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlClient } from '../../generated/sql/client.js';
import type { WeatherClient } from '../../generated/weather/client.js';
import { PROTOCOL_META } from '../support/mcp-request.js';
import { compiledMain, importCompiled, startScript, type HttpProcess } from '../support/servers.js';

const NO_EVAL = ['--disallow-code-generation-from-strings'];
type Connectable<C> = { connect(target: unknown, options?: unknown): Promise<C> };

const servers: Record<string, HttpProcess> = {};
beforeAll(async () => {
  for (const pkg of ['weather', 'sql', 'everything']) servers[pkg] = await startScript(compiledMain(pkg), [], { nodeFlags: NO_EVAL });
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((s) => s.stop()));
});

async function client<C>(pkg: string, className: string, options: Record<string, unknown> = {}): Promise<C> {
  const mod = await importCompiled<Record<string, Connectable<C>>>(pkg, 'client.js');
  return mod[className]!.connect({ url: servers[pkg]!.url }, options);
}

function noCodeGenerationErrors(pkg: string): void {
  expect(servers[pkg]!.stderr()).not.toMatch(/EvalError|Code generation from strings disallowed/);
}

describe('generated servers under --disallow-code-generation-from-strings', () => {
  it('weather: input validation (valid and refused) and output schemas', async () => {
    const c = await client<WeatherClient & { close(): Promise<void> }>('weather', 'WeatherClient');
    try {
      const forecast = await c.getForecast({ city: 'Paris', days: 2, units: 'imperial' });
      expect(forecast.isError).toBe(false);
      expect(forecast.structuredContent?.city).toBe('Paris');
      expect((await c.add({ a: 2, b: 40 })).structuredContent).toEqual({ sum: 42 });
      const invalid = await c.getAlerts({ state: 'California' });
      expect(invalid.isError).toBe(true);
      expect((invalid.content[0] as { text: string }).text).toContain('Invalid arguments for tool get_alerts: arguments/state must match pattern');
      expect((await c.listAllTools()).map((t) => t.name)).toEqual(['get_forecast', 'get_alerts', 'add']);
    } finally {
      await c.close();
    }
    noCodeGenerationErrors('weather');
  });

  it('sql: MRTR elicitation answers validated (accepted and refused), output schema checked', async () => {
    const c = await client<SqlClient & { close(): Promise<void> }>('sql', 'SqlClient', { onElicit: () => ({ action: 'accept', content: { confirm: true } }) });
    try {
      expect((await c.executeSql({ region: 'us-west1', query: 'DELETE FROM orders' })).structuredContent?.rowCount).toBe(1);
      expect((await c.listTables({ region: 'us-east1' })).structuredContent).toEqual({ tables: ['customers', 'invoices'] });
    } finally {
      await c.close();
    }
    // A refused answer ({"confirm": "false"}) goes through the answer validator without the client's help.
    const meta = { ...PROTOCOL_META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };
    const response = await fetch(servers.sql!.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'execute_sql', 'mcp-param-region': 'us-west1' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'execute_sql', arguments: { region: 'us-west1', query: 'DELETE FROM x' }, inputResponses: { confirm: { action: 'accept', content: { confirm: 'false' } } }, _meta: meta } }),
    });
    const body = (await response.json()) as { error?: { code: number; message: string } };
    expect(body.error).toEqual({ code: -32602, message: 'Invalid input response "confirm": content/confirm must be boolean', data: { inputResponse: 'confirm' } });
    noCodeGenerationErrors('sql');
  });

  it('everything: every tool, resource and prompt the conformance fixtures list answers', async () => {
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const c = new Client({ name: 'no-eval', version: '1' });
    await c.connect(new StreamableHTTPClientTransport(new URL(servers.everything!.url)));
    try {
      const tools = (await c.listTools()).tools;
      expect(tools.length).toBeGreaterThan(10);
      // Arguments that fail every non-trivial schema: each tool's validator runs (and refuses), none crashes.
      for (const t of tools) {
        const r = await c.callTool({ name: t.name, arguments: { __surely_not_declared__: [1, { a: 'b' }] } }).catch((e: { code?: number }) => ({ error: e.code }));
        expect(r).toBeDefined();
      }
      const simple = await c.callTool({ name: 'test_simple_text', arguments: {} });
      expect(simple.isError).toBeFalsy();
      const resources = (await c.listResources()).resources;
      for (const r of resources) expect((await c.readResource({ uri: r.uri })).contents.length).toBeGreaterThan(0);
      expect((await c.listPrompts()).prompts.length).toBeGreaterThan(0);
    } finally {
      await c.close();
    }
    noCodeGenerationErrors('everything');
  });
});
