// The node:http fast path (packages/runtime/src/server/transport/fast-path.ts): the same server served with and
// without it answers every request alike — plain calls, every content type, errors, refused headers,
// malformed envelopes, list pages — and with it, plain tools/call and list requests really skip the
// SDK's per-request pipeline (no Server is built for them once the envelope is known). Behind `auth:`
// (specs/secure.yaml) the same holds for every kind of token: valid, missing, malformed, invalid,
// expired, lacking the required or a tool's scopes, the authorization server down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { definition as EverythingDefinition } from '../../generated/everything/definition.js';
import type { definition as SecureDefinition } from '../../generated/secure-notes/definition.js';
import { createHttpHandler, createServerFactory, InvalidTokenError, listen, type AuthPrincipal, type RunningServer, type TokenVerifier } from '../../packages/runtime/src/server/index.js';
import { importCompiled } from '../support/servers.js';
import { schemaErrors } from '../support/wire.js';

const { definition } = await importCompiled<{ definition: typeof EverythingDefinition }>('everything', 'definition.js');
const { handlers } = await importCompiled<{ handlers: object }>('everything', 'handlers.js');

const secure = await importCompiled<{ definition: typeof SecureDefinition }>('secure-notes', 'definition.js');
const { handlers: secureHandlers } = await importCompiled<{ handlers: object }>('secure-notes', 'handlers.js');

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
let built = 0;
let fastServer: RunningServer;
let sdkServer: RunningServer;

/** Tokens by name: who they speak for (a test verifier; the JWT verifier has its own tests). */
const HOUR = 3600;
const now = () => Math.floor(Date.now() / 1000);
const principal = (subject: string, scopes: string[], expiresAt = now() + HOUR): AuthPrincipal => ({ subject, clientId: 'app', scopes, claims: { sub: subject }, expiresAt });
const TOKENS: Record<string, () => AuthPrincipal> = {
  reader: () => principal('ann', ['notes.read']),
  writer: () => principal('bob', ['notes.write', 'notes.read']),
  admin: () => principal('cy', ['notes.read', 'notes.write', 'notes.admin']),
  outsider: () => principal('dee', ['other']),
  expired: () => principal('eve', ['notes.read'], now() - HOUR),
};
const verified: { token: string; resource: string }[] = [];
const verifier: TokenVerifier = {
  async verify(token, { resource }) {
    verified.push({ token, resource });
    if (token === 'down') throw new Error('authorization server unreachable');
    const p = TOKENS[token];
    if (p === undefined) throw new InvalidTokenError('Unknown token');
    return p();
  },
};
const RESOURCE = 'http://notes.test/mcp';
let secureBuilt = 0;
let secureFast: RunningServer;
let secureSdk: RunningServer;
/** The same protected server with its resource derived from the request URL (no `resource` set). */
let secureDerived: RunningServer;

beforeAll(async () => {
  // hideForbiddenTools: tools/list differs by the token's scopes, so remembered pages must too.
  const secureFactory = createServerFactory(secure.definition, secureHandlers as never, { hideForbiddenTools: true });
  const countedSecure = Object.assign(() => (secureBuilt++, secureFactory()), { fast: secureFactory.fast! });
  const auth = { verifier, resource: RESOURCE, onError: () => {} };
  secureFast = await listen(createHttpHandler(countedSecure, secure.definition, { auth, endpointPath: '/mcp' }), {});
  secureSdk = await listen(createHttpHandler(secureFactory, secure.definition, { auth, endpointPath: '/mcp', fastPath: false }), {});
  secureDerived = await listen(createHttpHandler(secureFactory, secure.definition, { auth: { verifier }, endpointPath: '/mcp' }), {});
  expect(createHttpHandler(secureFactory, secure.definition, { auth }).fast?.admit).toBeDefined();
  const factory = createServerFactory(definition, handlers as never);
  const counted = Object.assign(() => (built++, factory()), { fast: factory.fast! });
  fastServer = await listen(createHttpHandler(counted, definition, {}), {});
  sdkServer = await listen(createHttpHandler(factory, definition, { fastPath: false }), {});
  expect(createHttpHandler(counted, definition, {}).fast).toBeDefined();
  expect(createHttpHandler(factory, definition, { fastPath: false }).fast).toBeUndefined();
});
afterAll(async () => {
  await Promise.all([fastServer.close(), sdkServer.close(), secureFast.close(), secureSdk.close(), secureDerived.close()]);
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

async function answer(base: string, c: Call): Promise<{ status: number; type: string | null; challenge?: string | null; body: unknown }> {
  const r = await post(base, c);
  const text = await r.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // SSE or empty: compared as text
  }
  const challenge = r.headers.get('www-authenticate');
  return { status: r.status, type: r.headers.get('content-type'), ...(challenge !== null ? { challenge } : {}), body };
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

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const as = (token: string, c: Call): Call => ({ ...c, headers: { ...bearer(token), ...c.headers } });

const AUTH_CASES: [string, Call][] = [
  ['a valid token: whoami (ctx.auth)', as('reader', call('whoami'))],
  ['a valid token: list_notes', as('reader', call('list_notes'))],
  ['a valid token: invalid arguments', as('writer', call('add_note', { text: '' }))],
  ['a valid token: an unknown tool', as('reader', call('no_such_tool'))],
  ['a valid token: a foreign Host', as('reader', call('whoami', {}, { headers: { host: 'evil.example' } }))],
  ['a valid token: not JSON', as('reader', { method: 'tools/call', body: '{"jsonrpc":' })],
  ['a valid token: tools/list (reader)', as('reader', { method: 'tools/list' })],
  ['a valid token: tools/list (admin sees more)', as('admin', { method: 'tools/list' })],
  ['a valid token: resources/list', as('reader', { method: 'resources/list' })],
  ['a valid token: prompts/list', as('reader', { method: 'prompts/list' })],
  ['no token', call('whoami')],
  ['no token: tools/list', { method: 'tools/list' }],
  ['another scheme', call('whoami', {}, { headers: { authorization: 'Basic YTpi' } })],
  ['an empty bearer token', call('whoami', {}, { headers: { authorization: 'Bearer ' } })],
  ['a malformed Authorization header', call('whoami', {}, { headers: { authorization: 'Bearer a b' } })],
  ['an invalid token', as('forged', call('whoami'))],
  ['an expired token', as('expired', call('whoami'))],
  ['the authorization server down', as('down', call('whoami'))],
  ['lacking the required scope', as('outsider', call('whoami'))],
  ['lacking the required scope: tools/list', as('outsider', { method: 'tools/list' })],
  ["lacking a tool's scope", as('reader', call('add_note', { text: 'x' }))],
  ["lacking a tool's scope (admin tool)", as('writer', call('purge_notes'))],
  ["holding a tool's scope", as('writer', call('add_note', { text: 'from the test' }))],
  ["lacking a prompt's scope", as('reader', { method: 'prompts/get', params: { name: 'weekly_review' } })],
];

describe('behind auth: the fast path answers as the SDK path does', () => {
  it.each(AUTH_CASES)('%s', async (_, c) => {
    for (let round = 0; round < 2; round++) {
      const [fast, sdk] = [await answer(secureFast.url, c), await answer(secureSdk.url, c)];
      expect(fast).toEqual(sdk);
    }
  });

  it('serves verified calls without an SDK Server, hands the caller to handlers, and verifies each token once', async () => {
    await answer(secureFast.url, as('reader', call('whoami')));
    await answer(secureFast.url, as('writer', { method: 'tools/list' }));
    const before = secureBuilt;
    verified.length = 0;
    for (let i = 0; i < 10; i++) {
      expect((await answer(secureFast.url, as('reader', call('whoami', {}, { id: i })))).body).toMatchObject({ id: i, result: { structuredContent: { subject: 'ann', clientId: 'app', scopes: ['notes.read'] } } });
      expect((await answer(secureFast.url, as('writer', { method: 'tools/list', id: i }))).body).toMatchObject({ id: i, result: { tools: expect.any(Array) } });
    }
    expect(secureBuilt - before).toBe(0);
    expect(verified.map((v) => v.token)).toEqual(Array.from({ length: 10 }, () => ['reader', 'writer']).flat());
    // A request the fast path hands to the SDK path (an envelope it has not seen) is verified once too.
    verified.length = 0;
    const meta = { ...META, 'io.modelcontextprotocol/clientInfo': { name: 'new-client', version: '1' } };
    const handed = await answer(secureFast.url, as('admin', { method: 'tools/call', params: { name: 'whoami', arguments: {}, _meta: meta } }));
    expect(handed.body).toMatchObject({ result: { structuredContent: { subject: 'cy' } } });
    expect(secureBuilt - before).toBe(1);
    expect(verified.map((v) => v.token)).toEqual(['admin']);
  });

  it('verifies tokens for the resource derived from the request URL when none is configured', async () => {
    verified.length = 0;
    for (let i = 0; i < 2; i++) expect((await answer(secureDerived.url, as('reader', call('whoami')))).status).toBe(200);
    expect(verified).toEqual([
      { token: 'reader', resource: secureDerived.url },
      { token: 'reader', resource: secureDerived.url },
    ]);
  });
});

describe('the fast path builds no Web Request for a handler that does not read ctx.httpRequest', () => {
  it('answers plain calls without constructing a Request', async () => {
    await answer(fastServer.url, call('test_simple_text'));
    const Original = globalThis.Request;
    let made = 0;
    // The server's node:http face builds Web Requests with the global constructor (fetch's client side does not).
    globalThis.Request = class extends Original {
      constructor(...args: ConstructorParameters<typeof Request>) {
        super(...args);
        made++;
      }
    };
    try {
      for (let i = 0; i < 5; i++) expect((await answer(fastServer.url, call('test_simple_text', {}, { id: i }))).status).toBe(200);
      expect(made).toBe(0);
      // What is handed to the SDK path does build one: the spy sees the server's Requests.
      await answer(fastServer.url, call('test_image_content'));
      expect(made).toBeGreaterThan(0);
    } finally {
      globalThis.Request = Original;
    }
  });
});

describe('cancellation on the fast path', () => {
  it("aborts the tool's ctx.signal when the client goes away, whether the handler read it before or after", async () => {
    const method = definition.tools.find((t) => t.definition.name === 'test_simple_text')!.method;
    const outcomes = new Map<unknown, (reason: string) => void>();
    let release: () => void = () => {};
    let running: () => void = () => {};
    const slow = {
      ...(handlers as Record<string, unknown>),
      async [method](_args: unknown, ctx: { requestId: unknown; signal: AbortSignal }) {
        if (ctx.requestId === 'learn') return 'learnt';
        running();
        if (ctx.requestId === 'before') await new Promise((r) => ctx.signal.addEventListener('abort', r, { once: true }));
        else await new Promise<void>((r) => (release = r)); // the signal is first read after the disconnect
        outcomes.get(ctx.requestId)?.(ctx.signal.aborted ? String(ctx.signal.reason) : 'not aborted');
        return 'late';
      },
    };
    const factory = createServerFactory(definition, slow as never);
    const server = await listen(createHttpHandler(factory, definition, {}), {});
    try {
      await answer(server.url, call('test_simple_text', {}, { id: 'learn' })); // the envelope, through the SDK
      for (const id of ['before', 'after']) {
        const outcome = new Promise<string>((r) => outcomes.set(id, r));
        const started = new Promise<void>((r) => (running = r));
        const closed = new Promise<void>((r) => server.server.once('request', (req) => req.socket.once('close', () => r())));
        const abort = new AbortController();
        const request = fetch(server.url, {
          method: 'POST',
          signal: abort.signal,
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'test_simple_text' },
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'test_simple_text', arguments: {}, _meta: META } }),
        }).catch(() => undefined);
        await started;
        abort.abort();
        await request;
        await closed;
        release();
        expect(await outcome).toMatch(/client disconnected/);
      }
    } finally {
      release();
      await server.close(1000);
    }
  });
});
