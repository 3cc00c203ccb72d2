// Elicitation answers (MR12) are checked against the spec's `elicit.<key>.schema` before the handler runs:
// the sql example's confirmation cannot be bypassed with {"confirm": "false"} (a truthy string).
import { describe, expect, it } from 'vitest';
import type { definition as SqlDefinition } from '../../generated/sql/definition.js';
import type { SqlHandlers } from '../../generated/sql/server.js';
import { createMcpgenServer } from '../../packages/runtime/src/server/index.js';
import { importCompiled } from '../support/servers.js';
import { mcpRequest } from '../support/mcp-request.js';

const { definition } = await importCompiled<{ definition: typeof SqlDefinition }>('sql', 'definition.js');
const { handlers } = await importCompiled<{ handlers: SqlHandlers }>('sql', 'handlers.js');
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };

let ran = 0;
const counted: SqlHandlers = { ...handlers, executeSql: (args, ctx) => { ran++; return handlers.executeSql(args, ctx); } };
const server = createMcpgenServer(definition, counted).http();

async function executeWith(inputResponses: unknown): Promise<{ result?: { isError?: boolean; structuredContent?: { rowCount: number }; resultType?: string }; error?: { code: number; message: string } }> {
  const params = { name: 'execute_sql', arguments: { region: 'us-west1', query: 'DELETE FROM customers' }, ...(inputResponses !== undefined ? { inputResponses } : {}), _meta: META };
  const response = await server.fetch(mcpRequest('tools/call', params, { headers: { 'mcp-param-region': 'us-west1' } }));
  return response.json() as never;
}

describe('elicitation answers are validated against the spec schema', () => {
  it('refuses {"confirm": "false"} with -32602 and never runs the handler (the bypass)', async () => {
    const before = ran;
    const r = await executeWith({ confirm: { action: 'accept', content: { confirm: 'false' } } });
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.message).toBe('Invalid input response "confirm": content/confirm must be boolean');
    expect(r.result).toBeUndefined();
    expect(ran).toBe(before);
  });

  const rows: [string, unknown, 'ran' | 'not confirmed' | 'asks' | -32602][] = [
    ['no answer yet', undefined, 'asks'],
    ['accept, confirm: true', { confirm: { action: 'accept', content: { confirm: true } } }, 'ran'],
    ['accept, confirm: false', { confirm: { action: 'accept', content: { confirm: false } } }, 'not confirmed'],
    ['decline', { confirm: { action: 'decline' } }, 'not confirmed'],
    ['cancel (content ignored)', { confirm: { action: 'cancel', content: { confirm: 'yes' } } }, 'not confirmed'],
    ['accept, confirm: "true"', { confirm: { action: 'accept', content: { confirm: 'true' } } }, -32602],
    ['accept, confirm: 1', { confirm: { action: 'accept', content: { confirm: 1 } } }, -32602],
    ['accept without content (confirm is required)', { confirm: { action: 'accept' } }, -32602],
    ['accept, content an array', { confirm: { action: 'accept', content: [true] } }, -32602],
    ['action "ACCEPT"', { confirm: { action: 'ACCEPT', content: { confirm: true } } }, -32602],
    ['answer not an object (the SDK drops it: asks again)', { confirm: 'accept' }, 'asks'],
    ['an undeclared key only (ignored: asks again)', { other: { action: 'accept', content: { confirm: 'x' } } }, 'asks'],
  ];
  for (const [what, answers, expected] of rows) {
    it(`${what} → ${expected}`, async () => {
      const r = await executeWith(answers);
      if (expected === -32602) expect(r.error?.code, JSON.stringify(r)).toBe(-32602);
      else if (expected === 'asks') expect(r.result?.resultType).toBe('input_required');
      else if (expected === 'ran') expect(r.result).toMatchObject({ structuredContent: { rowCount: 1 } });
      else expect(r.result).toMatchObject({ isError: true });
    });
  }
});
