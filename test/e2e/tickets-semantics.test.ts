// Issue 24, items 2-4, on a "tickets" package generated and compiled here (strict flags, exactOptionalPropertyTypes)
// and served by its own main.js:
// - an output root written as `$ref: '#/$defs/Ticket'` gives every host the same structuredContent and
//   outputSchema: a 2025-11-25 client (initialize) and a 2026-07-28 one, both the official SDK client over HTTP;
// - input `default:` values reach the handler over HTTP (the SDK path), stdio and the HTTP fast path, and the
//   types say so: present in the handler's input, optional (and `undefined`-accepting) in client arguments;
// - an optional client argument given as `undefined` compiles and sends nothing.
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHandler, createServerFactory, listen } from '../../packages/runtime/src/server/index.js';
import { ROOT, startScript, type HttpProcess } from '../support/servers.js';
import { generateAndCompile } from '../support/generated-package.js';

const DIR = join(ROOT, '.tmp/tickets-semantics');
const JS = join(DIR, 'js');

const SPEC = `mcpgen: 1
server: { name: tickets, version: 1.0.0 }
$defs:
  Status: { type: string, enum: [open, closed], default: open }
  Ticket:
    type: object
    properties:
      id: { type: string }
      title: { type: string }
      status: { $ref: '#/$defs/Status' }
    required: [id, title, status]
tools:
  - name: get_ticket
    input: { type: object, properties: { id: { type: string } }, required: [id] }
    output: { $ref: '#/$defs/Ticket' }
  - name: list_tickets
    input:
      type: object
      properties:
        limit: { type: integer, minimum: 1, default: 20 }
        cursor: { type: string }
        status: { $ref: '#/$defs/Status' }
        filter:
          type: object
          properties:
            assignee: { type: string }
            closed: { type: boolean, default: false }
      additionalProperties: false
`;

// Typed assignments: they compile only when the defaulted properties are present in the handler's input.
const HANDLERS = `import type { TicketsHandlers } from './server.js';
import type { Status } from './types.js';
export const handlers: TicketsHandlers = {
  getTicket({ id }) {
    return { id, title: 'Printer on fire', status: 'open' };
  },
  listTickets(args) {
    const limit: number = args.limit;
    const status: Status = args.status;
    const closed: boolean | undefined = args.filter === undefined ? undefined : args.filter.closed;
    return JSON.stringify({ args, typed: [limit, status, closed] });
  },
};
`;

// Never run: compiled only. Each @ts-expect-error is a control that must fail to compile.
const USAGE = `import type { TicketsClient } from './client.js';
import type { ListTicketsArguments, ListTicketsInput } from './types.js';
export async function usage(client: TicketsClient, page: { nextCursor?: string | undefined }): Promise<unknown[]> {
  await client.listTickets({ cursor: page.nextCursor });
  await client.listTickets({ limit: undefined, status: undefined, filter: { assignee: undefined, closed: undefined } });
  await client.listTickets();
  const sent: ListTicketsArguments = { cursor: undefined };
  // @ts-expect-error exactOptionalPropertyTypes is on: undefined is no absent string without "| undefined"
  const strict: { cursor?: string } = { cursor: page.nextCursor };
  // @ts-expect-error the handler's input always holds its defaults (limit, status)
  const input: ListTicketsInput = { cursor: 'x' };
  // @ts-expect-error a defaulted argument keeps its type
  await client.listTickets({ limit: 'twenty' });
  return [sent, strict, input];
}
`;

let http: HttpProcess;

beforeAll(async () => {
  const built = await generateAndCompile(DIR, 'tickets', SPEC, { 'handlers.ts': HANDLERS, 'usage.ts': USAGE });
  expect(built.diagnostics).toEqual([]);
  expect(built.compileErrors).toEqual([]);
  http = await startScript(join(JS, 'main.js'));
}, 120_000);

afterAll(async () => {
  await http?.stop();
});

const legacyClient = () => new Client({ name: 'host-2025', version: '1' }); // default negotiation: initialize
const modernClient = () => new Client({ name: 'host-2026', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });

async function withClient<T>(client: Client, url: string, run: (c: Client) => Promise<T>): Promise<T> {
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

const TICKET = { id: 't-1', title: 'Printer on fire', status: 'open' };

describe('an output root written as a $ref', () => {
  it('gives a 2025-11-25 and a 2026-07-28 client the same structuredContent and outputSchema', async () => {
    const seen = async (client: Client) =>
      withClient(client, http.url, async (c) => {
        const listed = (await c.listTools()).tools.find((t) => t.name === 'get_ticket')!;
        const called = await c.callTool({ name: 'get_ticket', arguments: { id: 't-1' } });
        return { outputSchema: listed.outputSchema, structuredContent: called.structuredContent, isError: called.isError };
      });
    const old = await seen(legacyClient());
    const modern = await seen(modernClient());
    expect(old).toEqual(modern);
    // The Ticket itself, not {"result": Ticket}, and its schema with the root type stated.
    expect(old.structuredContent).toEqual(TICKET);
    expect(old.outputSchema).toMatchObject({ type: 'object', $ref: '#/$defs/Ticket' });
    expect(old.isError).toBeFalsy();
  });

  it('gives a 2025-11-25 host launching it over stdio (initialize, as desktop hosts do) the same', async () => {
    const client = legacyClient();
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(JS, 'main.js')], stderr: 'ignore' }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      const listed = (await client.listTools()).tools.find((t) => t.name === 'get_ticket')!;
      const called = await client.callTool({ name: 'get_ticket', arguments: { id: 't-1' } });
      expect(called.structuredContent).toEqual(TICKET);
      expect(listed.outputSchema).toMatchObject({ type: 'object', $ref: '#/$defs/Ticket' });
    } finally {
      await client.close();
    }
  });
});

/** What list_tickets' handler got, as it reported it. */
function handlerSaw(result: { content?: unknown }): { args: Record<string, unknown>; typed: unknown[] } {
  const [first] = result.content as { type: string; text: string }[];
  return JSON.parse(first!.text);
}

const DEFAULTED = { limit: 20, status: 'open' };

describe('input defaults reach the handler', () => {
  it('over HTTP (the SDK path, a 2025-11-25 client)', async () => {
    const saw = await withClient(legacyClient(), http.url, async (c) => handlerSaw(await c.callTool({ name: 'list_tickets', arguments: { filter: { assignee: 'ann' } } })));
    expect(saw.args).toEqual({ ...DEFAULTED, filter: { assignee: 'ann', closed: false } });
    expect(saw.typed).toEqual([20, 'open', false]);
  });

  it('over stdio', async () => {
    const client = modernClient();
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(JS, 'main.js')], stderr: 'ignore' }));
    try {
      const saw = handlerSaw(await client.callTool({ name: 'list_tickets', arguments: { limit: 5 } }));
      expect(saw.args).toEqual({ limit: 5, status: 'open' });
    } finally {
      await client.close();
    }
  });

  it('over the HTTP fast path (no SDK Server built for the call)', async () => {
    const { definition } = (await import(join(JS, 'definition.js'))) as { definition: never };
    const { handlers } = (await import(join(JS, 'handlers.js'))) as { handlers: never };
    const factory = createServerFactory(definition, handlers);
    let built = 0;
    const counted = Object.assign(() => (built++, factory()), { fast: factory.fast! });
    const server = await listen(createHttpHandler(counted, definition, {}), {});
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const post = async (id: number, args: Record<string, unknown>) => {
      const r = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'list_tickets' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_tickets', arguments: args, _meta: meta } }),
      });
      return handlerSaw(((await r.json()) as { result: { content: unknown } }).result);
    };
    try {
      expect((await post(1, { status: 'closed' })).args).toEqual({ limit: 20, status: 'closed' }); // the SDK path learns the envelope
      const before = built;
      expect((await post(2, { cursor: 'c2' })).args).toEqual({ ...DEFAULTED, cursor: 'c2' });
      expect(built).toBe(before);
    } finally {
      await server.close();
    }
  });
});

describe('optional client arguments given as undefined', () => {
  it('send nothing for them, and the server fills in its defaults', async () => {
    const { TicketsClient } = (await import(join(JS, 'client.js'))) as { TicketsClient: { connect(t: unknown): Promise<{ listTickets(a: unknown): Promise<{ content?: unknown }>; close(): Promise<void> }> } };
    const bodies: unknown[] = [];
    const spy = (input: string | URL | Request, init?: RequestInit) => {
      if (typeof init?.body === 'string') bodies.push(JSON.parse(init.body));
      return fetch(input, init);
    };
    const client = await TicketsClient.connect({ url: http.url, fetch: spy });
    try {
      const saw = handlerSaw(await client.listTickets({ cursor: undefined, limit: undefined, filter: { assignee: undefined } }));
      expect(saw.args).toEqual({ ...DEFAULTED, filter: { closed: false } });
    } finally {
      await client.close();
    }
    const call = bodies.find((b) => (b as { method?: string }).method === 'tools/call') as { params: { arguments: object } };
    expect(call.params.arguments).toStrictEqual({ filter: {} });
  });
});
