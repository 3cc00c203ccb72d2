// The node:http fast path (packages/runtime/src/server/fast-path.ts): the same server served with and
// without it answers every request alike — plain calls, every content type, errors, refused headers,
// malformed envelopes, list pages — and with it, plain tools/call and list requests really skip the
// SDK's per-request pipeline (no Server is built for them once the envelope is known).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { definition as EverythingDefinition } from '../../generated/everything/definition.js';
import { createHttpHandler, createServerFactory, listen, type RunningServer } from '../../packages/runtime/src/server/index.js';
import { importCompiled } from '../support/servers.js';
import { schemaErrors } from '../support/wire.js';

const { definition } = await importCompiled<{ definition: typeof EverythingDefinition }>('everything', 'definition.js');
const { handlers } = await importCompiled<{ handlers: object }>('everything', 'handlers.js');

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
let built = 0;
let fastServer: RunningServer;
let sdkServer: RunningServer;

beforeAll(async () => {
  const factory = createServerFactory(definition, handlers as never);
  const counted = Object.assign(() => (built++, factory()), { fast: factory.fast! });
  fastServer = await listen(createHttpHandler(counted, definition, {}), {});
  sdkServer = await listen(createHttpHandler(factory, definition, { fastPath: false }), {});
  expect(createHttpHandler(counted, definition, {}).fast).toBeDefined();
  expect(createHttpHandler(factory, definition, { fastPath: false }).fast).toBeUndefined();
});
afterAll(async () => {
  await Promise.all([fastServer.close(), sdkServer.close()]);
});

interface Call {
  readonly method: string;
  readonly params?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly id?: unknown;
}

function post(base: string, c: Call): Promise<Response> {
  const params = c.params ?? {};
  const name = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return fetch(base, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': c.method, ...name, ...c.headers },
    body: c.body ?? JSON.stringify({ jsonrpc: '2.0', id: c.id ?? 1, method: c.method, params: { _meta: META, ...params } }),
  });
}

async function answer(base: string, c: Call): Promise<{ status: number; type: string | null; body: unknown }> {
  const r = await post(base, c);
  const text = await r.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // SSE or empty: compared as text
  }
  return { status: r.status, type: r.headers.get('content-type'), body };
}

const call = (name: string, args: Record<string, unknown> = {}, extra: Partial<Call> = {}): Call => ({ method: 'tools/call', params: { name, arguments: args }, ...extra });

const CASES: [string, Call][] = [
  ['plain text result', call('test_simple_text')],
  ['image content (encoded by the SDK)', call('test_image_content')],
  ['audio content', call('test_audio_content')],
  ['embedded resource', call('test_embedded_resource')],
  ['several content types', call('test_multiple_content_types')],
  ['an error result', call('test_error_handling')],
  ['invalid arguments', call('json_schema_2020_12_tool', { name: 7 })],
  ['valid 2020-12 arguments', call('json_schema_2020_12_tool', { name: 'x', address: { street: 'a', city: 'b' } })],
  ['an unknown tool', call('no_such_tool')],
  ['a string id', call('test_simple_text', {}, { id: 'abc' })],
  ['a fractional id', call('test_simple_text', {}, { id: 1.5 })],
  ['Mcp-Name differs from the body', call('test_simple_text', {}, { headers: { 'mcp-name': 'test_image_content' } })],
  ['Mcp-Method differs from the body', call('test_simple_text', {}, { headers: { 'mcp-method': 'tools/list' } })],
  ['an older protocol version header', call('test_simple_text', {}, { headers: { 'mcp-protocol-version': '2025-11-25' } })],
  ['Mcp-Param header missing', call('test_header_param', { region: 'us-west1' })],
  ['Mcp-Param header right', call('test_header_param', { region: 'us-west1' }, { headers: { 'mcp-param-region': 'us-west1' } })],
  ['Mcp-Param header wrong', call('test_header_param', { region: 'us-west1' }, { headers: { 'mcp-param-region': 'eu' } })],
  ['clientCapabilities not an object', { method: 'tools/call', params: { name: 'test_simple_text', _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': 5 } } }],
  ['clientInfo malformed', { method: 'tools/call', params: { name: 'test_simple_text', _meta: { ...META, 'io.modelcontextprotocol/clientInfo': { name: 5 } } } }],
  ['arguments not an object', { method: 'tools/call', params: { name: 'test_simple_text', arguments: [1] } }],
  ['an extra params key', { method: 'tools/call', params: { name: 'test_simple_text', extra: 1 } }],
  ['a foreign Origin', call('test_simple_text', {}, { headers: { origin: 'http://evil.example' } })],
  ['a foreign Host', call('test_simple_text', {}, { headers: { host: 'evil.example' } })],
  ['not JSON', { method: 'tools/call', body: '{"jsonrpc":' }],
  ['a JSON-RPC notification', { method: 'tools/call', body: JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'test_simple_text', _meta: META } }) }],
  ['Accept without SSE', call('test_simple_text', {}, { headers: { accept: 'application/json' } })],
  ['tools/list', { method: 'tools/list' }],
  ['tools/list page 2', { method: 'tools/list', params: { cursor: Buffer.from('p1').toString('base64url') } }],
  ['tools/list, a bad cursor', { method: 'tools/list', params: { cursor: 'nope' } }],
  ['resources/list', { method: 'resources/list' }],
  ['resources/templates/list', { method: 'resources/templates/list' }],
  ['prompts/list', { method: 'prompts/list' }],
];

const RESPONSE_TYPES: Record<string, string> = {
  'tools/call': 'CallToolResultResponse',
  'tools/list': 'ListToolsResultResponse',
  'resources/list': 'ListResourcesResultResponse',
  'resources/templates/list': 'ListResourceTemplatesResultResponse',
  'prompts/list': 'ListPromptsResultResponse',
};

describe('the fast path answers as the SDK path does', () => {
  it.each(CASES)('%s', async (_, c) => {
    // Twice: the first request with an envelope (or list page) is learnt through the SDK, the second is served fast.
    for (let round = 0; round < 2; round++) {
      const [fast, sdk] = [await answer(fastServer.url, c), await answer(sdkServer.url, c)];
      expect(fast).toEqual(sdk);
      const type = RESPONSE_TYPES[c.method];
      if (fast.status === 200 && typeof fast.body === 'object' && type !== undefined && 'result' in (fast.body as object)) expect(schemaErrors(type, fast.body)).toEqual([]);
    }
  });

  it('serves plain tools/call and lists without building an SDK Server per request', async () => {
    await answer(fastServer.url, call('test_simple_text'));
    await answer(fastServer.url, { method: 'tools/list' });
    const before = built;
    for (let i = 0; i < 20; i++) {
      expect((await answer(fastServer.url, call('test_simple_text', {}, { id: i }))).body).toMatchObject({ id: i, result: { content: [{ type: 'text' }], resultType: 'complete' } });
      expect((await answer(fastServer.url, { method: 'tools/list', id: i })).body).toMatchObject({ id: i, result: { tools: expect.any(Array) } });
    }
    expect(built - before).toBe(0);
    // What the fast path hands back still builds one: an image result, encoded by the SDK.
    await answer(fastServer.url, call('test_image_content'));
    expect(built - before).toBe(1);
  });
});
