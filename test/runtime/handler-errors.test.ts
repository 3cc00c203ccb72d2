// What the client sees when a handler throws: only a generic message, unless the handler meant the message
// for it (PublicError, ProtocolError); the real error always reaches onHandlerError, even when it cannot
// be printed. Tools, resources, prompts and completions.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMcpgenServer, protocolError, PublicError, type ServerDefinition } from '../../packages/runtime/src/server/index.js';
import { mcpRequest } from '../support/mcp-request.js';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const SECRET = '/srv/app/config/db-password.txt';

const definition: ServerDefinition = {
  info: { name: 'errors', version: '1.0.0' },
  capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
  listCache: { ttlMs: 0, cacheScope: 'private' },
  tools: [{ definition: { name: 'boom', inputSchema: { type: 'object' } }, method: 'boom', headers: [], elicit: {} }],
  resources: [{ definition: { uri: 'test://r', name: 'r' }, method: 'readR' }],
  resourceTemplates: [],
  prompts: [{ definition: { name: 'p' }, method: 'getP' }],
};

class SecretError extends Error {}
const hostile = () => new Proxy({}, { get() { throw new Error(SECRET); }, getPrototypeOf() { throw new Error(SECRET); }, has() { throw new Error(SECRET); } });
const rows: { what: string; thrown: () => unknown; client: 'generic' | 'own' | 'protocol'; logged: boolean }[] = [
  { what: 'an Error with a server path', thrown: () => new Error(`ENOENT: open '${SECRET}'`), client: 'generic', logged: true },
  { what: 'an Error subclass', thrown: () => new SecretError(`connect ${SECRET}`), client: 'generic', logged: true },
  { what: 'a string', thrown: () => `failed at ${SECRET}`, client: 'generic', logged: true },
  { what: 'a plain object', thrown: () => ({ message: SECRET }), client: 'generic', logged: true },
  { what: 'a value whose String() throws', thrown: () => ({ toString() { throw new TypeError(SECRET); } }), client: 'generic', logged: true },
  { what: 'an Error whose stack and message getters throw', thrown: () => Object.defineProperties(new Error('x'), { stack: { get() { throw new Error(SECRET); } }, message: { get() { throw new Error(SECRET); } } }), client: 'generic', logged: true },
  { what: 'an object without a prototype', thrown: () => Object.create(null), client: 'generic', logged: true },
  { what: 'a Proxy whose every trap throws', thrown: hostile, client: 'generic', logged: true },
  { what: 'undefined', thrown: () => undefined, client: 'generic', logged: true },
  { what: 'a PublicError (meant for the client)', thrown: () => new PublicError('Quota exceeded, try again tomorrow'), client: 'own', logged: false },
  { what: 'a ProtocolError (protocolError())', thrown: () => { try { protocolError(-31001, 'Upstream says no'); } catch (e) { return e; } }, client: 'protocol', logged: false },
];

const GENERIC = { tool: 'Tool boom failed', resource: 'Reading test://r failed', prompt: 'Prompt p failed', completion: 'Completion failed' };

function serverThrowing(thrown: unknown, log: unknown[]) {
  const fail = () => { throw thrown; };
  return createMcpgenServer(definition, { boom: fail, readR: fail, getP: fail, complete: fail }, { onHandlerError: (e, where) => log.push([where, e]) }).http();
}

async function call(handler: { fetch: (r: Request) => Promise<Response> }, method: string, params: Record<string, unknown>, name?: string) {
  const response = await handler.fetch(mcpRequest(method, { ...params, _meta: META }, name !== undefined ? { name } : {}));
  const text = await response.text();
  return { text, json: JSON.parse(text) as { result?: { isError?: boolean; content?: { text: string }[] }; error?: { code: number; message: string } } };
}

describe('handler exceptions as the client sees them', () => {
  for (const row of rows) {
    it(`${row.what}: ${row.client === 'generic' ? 'generic message, reported' : 'its own message'}`, async () => {
      const log: unknown[] = [];
      const handler = serverThrowing(row.thrown(), log);
      const tool = await call(handler, 'tools/call', { name: 'boom', arguments: {} }, 'boom');
      const resource = await call(handler, 'resources/read', { uri: 'test://r' }, 'test://r');
      const prompt = await call(handler, 'prompts/get', { name: 'p' }, 'p');
      const completion = await call(handler, 'completion/complete', { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } });
      for (const r of [tool, resource, prompt, completion]) expect(r.text).not.toContain(SECRET);
      if (row.client === 'generic') {
        expect(tool.json.result).toEqual({ content: [{ type: 'text', text: GENERIC.tool }], isError: true, resultType: 'complete', _meta: expect.anything() });
        expect(resource.json.error).toMatchObject({ code: -32603, message: GENERIC.resource });
        expect(prompt.json.error).toMatchObject({ code: -32603, message: GENERIC.prompt });
        expect(completion.json.error).toMatchObject({ code: -32603, message: GENERIC.completion });
      } else if (row.client === 'own') {
        expect(tool.json.result).toEqual({ content: [{ type: 'text', text: 'Quota exceeded, try again tomorrow' }], isError: true, resultType: 'complete', _meta: expect.anything() });
        for (const r of [resource, prompt, completion]) expect(r.json.error).toMatchObject({ code: -32603, message: 'Quota exceeded, try again tomorrow' });
      } else {
        for (const r of [tool, resource, prompt, completion]) expect(r.json.error).toMatchObject({ code: -31001, message: 'Upstream says no' });
      }
      expect(log.map((entry) => (entry as [string])[0])).toEqual(row.logged ? ['tool boom', 'resource test://r', 'prompt p', 'completion/complete'] : []);
    });
  }
});

describe('reporting never becomes the answer', () => {
  afterEach(() => vi.restoreAllMocks());

  it('the default reporter logs a value whose String() throws, and the client still gets the generic answer', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
    const unprintable = { toString() { throw new TypeError(SECRET); } };
    const handler = createMcpgenServer(definition, { boom: () => { throw unprintable; } }).http();
    const r = await call(handler, 'tools/call', { name: 'boom', arguments: {} }, 'boom');
    vi.restoreAllMocks();
    expect(r.json.result).toMatchObject({ isError: true, content: [{ text: GENERIC.tool }] });
    expect(written.join('')).toBe('[mcpgen] tool boom: unprintable thrown value ([object Object])\n');
  });

  it('an onHandlerError that throws is itself logged; the client gets the generic answer', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
    const handler = createMcpgenServer(definition, { boom: () => { throw new Error('real cause'); } }, { onHandlerError: () => { throw new Error(SECRET); } }).http();
    const r = await call(handler, 'tools/call', { name: 'boom', arguments: {} }, 'boom');
    vi.restoreAllMocks();
    expect(r.text).not.toContain(SECRET);
    expect(r.json.result).toMatchObject({ isError: true, content: [{ text: GENERIC.tool }] });
    expect(written.join('')).toContain('[mcpgen] tool boom: onHandlerError threw (Error: /srv/app/config/db-password.txt');
    expect(written.join('')).toContain('while reporting: Error: real cause');
  });
});
