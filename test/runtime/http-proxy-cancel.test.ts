// A proxied tool call whose MCP client goes away stops its upstream request: on the fast path (which hears
// the disconnect without making the request's AbortSignal: core/cancel.ts), on the SDK path (the SDK's
// signal) and with a tool timeout (the tool's own signal). A real server on 127.0.0.1, a real upstream.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { definition as EverythingDefinition } from '../../generated/everything/definition.js';
import { createHttpHandler, createServerFactory, httpProxy, listen, type RunningServer } from '../../packages/runtime/src/server/index.js';
import { startMockUpstream, type MockUpstream } from '../support/mock-upstream.js';
import { importCompiled } from '../support/servers.js';
import { RequestCancel } from '../../packages/runtime/src/server/core/cancel.js';

const { definition } = await importCompiled<{ definition: typeof EverythingDefinition }>('everything', 'definition.js');
const { handlers } = await importCompiled<{ handlers: object }>('everything', 'handlers.js');
const TOOL = 'test_simple_text';
const method = definition.tools.find((t) => t.definition.name === TOOL)!.method;

let upstream: MockUpstream;
/** Upstream answers held open; each request's `closed` settles when its connection closes unanswered. */
const held: { res: ServerResponse; closed: Promise<void> }[] = [];
beforeAll(async () => {
  upstream = await startMockUpstream((_r, _i, res) => void held.push({ res, closed: new Promise((r) => res.once('close', () => r())) }));
});
afterAll(async () => {
  for (const h of held) h.res.destroy();
  await upstream.stop();
});

async function serverWith(options: { toolTimeoutMs?: number }): Promise<RunningServer> {
  const proxied = httpProxy<Record<string, unknown>>({ [method]: { method: 'GET', path: '/slow', params: [], output: false } }, { baseUrl: upstream.url, retries: 0 });
  const factory = createServerFactory(definition, { ...handlers, ...proxied } as never, options);
  return listen(createHttpHandler(factory, definition, {}), {});
}

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': TOOL };

/** A call the client gives up on once the upstream has it; resolves when the upstream's connection closed. */
async function abandoned(url: string, id: string, meta: Record<string, unknown>): Promise<'closed' | 'still open'> {
  const before = held.length;
  const abort = new AbortController();
  const request = fetch(url, { method: 'POST', signal: abort.signal, headers: HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: TOOL, arguments: {}, _meta: meta } }) }).catch(() => undefined);
  while (held.length === before) await new Promise((r) => setTimeout(r, 5));
  abort.abort();
  await request;
  return Promise.race([held[before]!.closed.then(() => 'closed' as const), new Promise<'still open'>((r) => setTimeout(() => r('still open'), 2000))]);
}

/** A call that completes (the upstream answers it): the fast path learns its envelope from it. */
async function learn(url: string): Promise<void> {
  const before = held.length;
  const done = fetch(url, { method: 'POST', headers: HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 'learn', method: 'tools/call', params: { name: TOOL, arguments: {}, _meta: META } }) });
  while (held.length === before) await new Promise((r) => setTimeout(r, 5));
  held[before]!.res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  expect(((await (await done).json()) as { result: { content: { text: string }[] } }).result.content[0]!.text).toBe('ok');
}

describe('a proxied call whose client goes away aborts its upstream request', () => {
  it('on the fast path, and on the SDK path (a first envelope goes there)', async () => {
    const server = await serverWith({});
    try {
      // A new envelope is served by the SDK path (which then teaches the fast path that envelope).
      expect(await abandoned(server.url, 'sdk', { ...META, 'io.modelcontextprotocol/clientInfo': { name: 'a', version: '1' } })).toBe('closed');
      await learn(server.url);
      expect(await abandoned(server.url, 'fast', META)).toBe('closed');
    } finally {
      await server.close(500);
    }
  });

  it('with a tool timeout (the tool has a signal of its own)', async () => {
    const server = await serverWith({ toolTimeoutMs: 60_000 });
    try {
      await learn(server.url);
      expect(await abandoned(server.url, 'timed', META)).toBe('closed');
    } finally {
      await server.close(500);
    }
  });
});

describe('RequestCancel', () => {
  it('calls each listener once, not one removed or added after the cancellation; its signal aborts with the reason', () => {
    const cancel = new RequestCancel();
    const calls: string[] = [];
    const a = () => calls.push('a');
    const b = () => calls.push('b');
    const c = () => calls.push('c');
    cancel.listen(a);
    cancel.listen(b);
    cancel.listen(c);
    cancel.unlisten(b);
    cancel.unlisten(a);
    cancel.listen(a);
    cancel.cancel(new Error('client disconnected'));
    cancel.cancel(new Error('again'));
    cancel.listen(b);
    expect(calls.sort()).toEqual(['a', 'c']);
    expect(cancel.cancelled).toBe(true);
    expect(cancel.controller.signal.aborted).toBe(true);
    expect(String(cancel.controller.signal.reason)).toBe('Error: client disconnected');
  });
});
